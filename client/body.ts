// Reading an answer's body whole, under the call's deadline and a cap on its size, before anything
// else reads it. A server that streams for ever, or a body larger than any answer of the API, ends the
// call at its deadline or at the cap, with at most the cap held in memory; the stream is cancelled,
// which closes the connection. Each read waits on the deadline itself (`Deadline.race`), never only on
// the signal handed to fetch, which undici may stop passing on (nodejs/node#55428).
import type { Deadline } from './deadline.js';

/**
 * The longest body the client reads, by default: far above any answer of the API at the
 * specification's ceilings (a catalog of 500 logins, an index of thousands of recipes).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * An answer the client will not read (its body is over the cap, or it is a redirect the runtime hides):
 * thrown from the fetch, so that nothing reads the rest of it.
 */
export class AnswerNotRead extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const tooLarge = (status: number, maxBytes: number) =>
  new AnswerNotRead(status, `a ${status} answer whose body is over the client's cap of ${maxBytes} bytes (maxResponseBytes); it was not read`);

// Statuses whose Response cannot carry a body (Fetch standard, "null body status").
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The same answer with its body read whole into memory: at most `maxBytes`, and only before the deadline. */
export async function readWhole(response: Response, maxBytes: number, deadline: Deadline): Promise<Response> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(response.status, maxBytes);
  }
  const bytes = response.body ? await readStream(response.body, response.status, maxBytes, deadline) : undefined;
  return new Response(NULL_BODY.has(response.status) ? null : (bytes ?? null), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

async function readStream(body: ReadableStream<Uint8Array>, status: number, maxBytes: number, deadline: Deadline): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await deadline.race(reader.read());
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge(status, maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    // Cancelling the stream aborts the fetch behind it and closes its connection.
    void reader.cancel(error).catch(() => undefined);
    throw error;
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}
