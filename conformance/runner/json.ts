/**
 * Any JSON value of the document, walked by the shapes OpenAPI 3.1 gives it. Its own module, so the
 * document and the view derived from it share it without importing each other.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Node = any;
