/**
 * A refusal the specification names: an HTTP status and a code from the document. The error
 * handler turns it into `{code, error}`; the message is for people and never carries a secret.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { retryAfter?: number; errors?: { path?: string; message: string }[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}
