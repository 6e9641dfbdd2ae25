// Random ids the client makes: a request id per attempt, an idempotency key per write.

/** A random id (a UUID where the runtime makes them: Node, and browsers on https; 32 hex digits elsewhere). */
export function randomId(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
