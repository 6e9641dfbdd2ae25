/**
 * Documented (operation, status, code) triples that no case exercises, each with the reason: it
 * cannot be caused from outside, or only by a request the runner never sends. Keys are
 * `<operationId> <status>[ <code>]`. The contract-coverage table lists them as not testable; every
 * other documented triple is exercised by a case.
 */

// The answers of the reference server's own Idempotency-Key header, on every POST that takes it.
// The specification gives writes no such key, and the runner sends none, so that no judgement of
// a deployment depends on it; the reference server's tests prove these answers instead.
const KEYED_WRITES = ['submitRecipe', 'fileSignupRequest', 'setLoginUsername', 'rotateLoginPassword', 'decidePurchaseApproval', 'decideSignupApproval'];
const REUSED =
  'Answered only to a request that sends the reference server\'s own Idempotency-Key header, which the runner never sends; server/test/idempotency.test.ts proves it.';
const IN_USE =
  'Answered only to a request that sends the reference server\'s own Idempotency-Key header, which the runner never sends, while another request with the same key is inside the server, which no sequence of exchanges arranges; server/test/idempotency.test.ts and idempotency-processes.e2e.test.ts prove it, on one process and on two.';

// The answer of every operation that must record something while the deployment's storage is full.
// Nothing a client sends can fill a deployment's storage on purpose, and a deployment that never
// fills up never answers it, so no case can wait for it.
const RECORDING = [...KEYED_WRITES, 'getTokenCatalog', 'getCvvRequest', 'getChallengeRequest'];
const FULL =
  'Answered only while the deployment\'s storage is full, which no exchange can bring about from outside; server/test/storage-full.test.ts proves it on every operation that records something.';

export const INELIGIBLE: Record<string, string> = Object.fromEntries([
  ...KEYED_WRITES.flatMap((operationId) => [
    [`${operationId} 409 idempotency_key_in_use`, IN_USE],
    [`${operationId} 422 idempotency_key_reused`, REUSED],
  ]),
  ...RECORDING.map((operationId) => [`${operationId} 503 storage_full`, FULL]),
]);
