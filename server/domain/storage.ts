import { ApiError } from './errors.js';

/** How long a caller is asked to wait when the storage is full: room is made by an operator, not by time. */
export const STORAGE_FULL_RETRY_SECONDS = 30;

/** How long a caller is asked to wait while the database cannot be reached: a restart takes seconds. */
export const UNAVAILABLE_RETRY_SECONDS = 1;

/**
 * The answer to a request that needs the database while it cannot be reached (store/db.ts,
 * StoreUnavailableError): its transaction never committed, so nothing of it was kept.
 */
export function storeUnavailable(): ApiError {
  return new ApiError(503, 'unavailable', 'The service cannot reach its database now; nothing was written. Retry after the number of seconds in Retry-After.', {
    retryAfter: UNAVAILABLE_RETRY_SECONDS,
  });
}

/**
 * The answer to a request whose write, or whose count against a per-minute limit, cannot be
 * stored because the storage is full. The transaction rolled back, so nothing of it was kept; a
 * read that must be counted is refused too rather than served uncounted, so the limit holds.
 */
export function storageFull(): ApiError {
  return new ApiError(
    503,
    'storage_full',
    'The service cannot store this request now (its storage is full); nothing was written. Retry after the number of seconds in Retry-After.',
    { retryAfter: STORAGE_FULL_RETRY_SECONDS },
  );
}
