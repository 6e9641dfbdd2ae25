import type { HttpRequest, HttpResponse } from './http.js';

/** One request the runner sent and the response it received, with the operation it was meant for. */
export interface Exchange {
  operationId?: string;
  request: HttpRequest;
  response: HttpResponse;
  /** Sent raw, for the server's HTTP layer to answer before any operation is matched. */
  layer?: boolean;
}

/** The error `code` of a JSON error body, if any. */
export function codeOf(response: HttpResponse): string | undefined {
  const body = response.json as { code?: unknown } | undefined;
  return body && typeof body === 'object' && typeof body.code === 'string' ? body.code : undefined;
}

/** The (operation, status, code) triple the contract-coverage table counts. */
export function triple(ex: Exchange): string | undefined {
  if (!ex.operationId) return undefined;
  const code = ex.response.status >= 400 ? codeOf(ex.response) : undefined;
  return coverageKey(ex.operationId, ex.response.status, code);
}

export function coverageKey(operationId: string, status: number | string, code?: string): string {
  return code ? `${operationId} ${status} ${code}` : `${operationId} ${status}`;
}
