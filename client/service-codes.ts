// Answers the reference server gives that the document does not list under each operation yet, by
// code, with the status each comes with. They are kept here, in one place, until the document lists
// them: the client reads their code as it reads a documented one (rather than as an undescribed answer),
// retries those that say the request was not carried out, and says which they are.

export const SERVICE_ANSWERS = {
  /**
   * 409: a request with the same `Idempotency-Key` is still being carried out. Sent again, with the
   * same key, after `Retry-After`; the answer is then the first request's.
   */
  idempotency_key_in_use: 409,
  /**
   * 422: the `Idempotency-Key` was used before with another body or another path: a caller's own
   * `idempotencyKey` given to two different writes. Final.
   */
  idempotency_key_reused: 422,
} as const;

/** A code of `SERVICE_ANSWERS`. */
export type ServiceErrorCode = keyof typeof SERVICE_ANSWERS;

/** The service code of an answer, when its status and code are one of `SERVICE_ANSWERS`. */
export function serviceCode(status: number, code: unknown): ServiceErrorCode | undefined {
  return typeof code === 'string' && Object.hasOwn(SERVICE_ANSWERS, code) && SERVICE_ANSWERS[code as ServiceErrorCode] === status
    ? (code as ServiceErrorCode)
    : undefined;
}
