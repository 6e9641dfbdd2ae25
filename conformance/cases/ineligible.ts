/**
 * Documented (operation, status, code) triples that no case exercises, each with the reason it
 * cannot be caused from outside. Keys are `<operationId> <status>[ <code>]`. The contract-coverage
 * table lists them as not testable; every other documented triple is exercised by a case.
 */
export const INELIGIBLE: Record<string, string> = {};
