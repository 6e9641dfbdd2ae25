import { AsyncLocalStorage } from 'node:async_hooks';
import type { HttpRequest, Sent } from './http.js';
import { maskHarLog, type HarMask } from './har-masking.js';

/**
 * `--har FILE`: every request and response of a run, as HAR 1.2 (the format browsers' developer
 * tools and proxies export), so that any case, passed or not, can be inspected afterwards. Each
 * entry names the case it was sent for in `_caseId` (HAR's way for a field of one's own: a leading
 * underscore); an exchange outside any case (the start-up probe, the key checks) has none, and says
 * so in its `comment`.
 */

/** The case whose code is running: every request sent under it is tagged with its id. */
export const caseScope = new AsyncLocalStorage<string>();

export interface Recorded extends Sent {
  caseId?: string;
}

/** Collects the exchanges of a run as they happen. */
export class Recording {
  readonly exchanges: Recorded[] = [];

  add(entry: Recorded): void {
    this.exchanges.push(entry);
  }

  /** One exchange as the connection tells it (`Connection.watch`), tagged with the case it was sent for. */
  record(sent: Sent): void {
    const caseId = caseScope.getStore();
    this.add({ ...(caseId ? { caseId } : {}), ...sent });
  }
}

/**
 * Strings a catalog or a login entry hands out as tokens: every member of a `tokens` object, and
 * in a token catalog every string but the named plain members. They are credentials of the
 * account's secrets (section 2.1), so the HAR file never shows them.
 */
const PLAIN = new Set(['label', 'website', 'extraWebsites', 'missing', 'code', 'error', 'status', 'requestId', 'id', 'anySite', 'hasEmail', 'hasUsername', 'hasTotp']);

function maskTokens(value: unknown, catalog: boolean, inTokens = false): unknown {
  if (Array.isArray(value)) return value.map((v) => maskTokens(v, catalog, inTokens));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([name, v]) => {
        if (typeof v === 'string' && (inTokens || name === 'token' || (catalog && !PLAIN.has(name)))) return [name, '<token>'];
        return [name, maskTokens(v, catalog, inTokens || name === 'tokens')];
      }),
    );
  }
  return value;
}

const BODY_LIMIT = 1_000_000;

function bodyText(text: string, json: unknown, operation: string | undefined): string {
  if (json !== undefined && typeof json === 'object') return JSON.stringify(maskTokens(json, operation === 'getTokenCatalog'));
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}… (${text.length} characters in all)` : text;
}

function headerList(headers: Record<string, string>): { name: string; value: string }[] {
  return Object.entries(headers)
    .filter(([name]) => !name.startsWith('('))
    .map(([name, value]) => ({ name, value }));
}

function queryOf(url: string): { name: string; value: string }[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** The operation a request was for, when the recording knows it (the exchanges of the cases). */
export type OperationOf = (request: HttpRequest) => string | undefined;

function entry(r: Recorded, operationOf: OperationOf): Record<string, unknown> {
  const { request, response } = r;
  const operation = operationOf(request);
  const requestBody = request.body ? request.body.toString('utf8') : undefined;
  const requestJson = (() => {
    try {
      return requestBody ? (JSON.parse(requestBody) as unknown) : undefined;
    } catch {
      return undefined;
    }
  })();
  const mime = response?.headers['content-type'] ?? '';
  return {
    startedDateTime: r.startedAt.toISOString(),
    time: Math.round(r.durationMs),
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(request.headers),
      queryString: queryOf(request.url),
      ...(requestBody !== undefined ? { postData: { mimeType: request.headers['content-type'] ?? '', text: bodyText(requestBody, requestJson, undefined) } } : {}),
      headersSize: request.raw ? request.raw.length - (request.body?.length ?? 0) : -1,
      bodySize: request.body?.length ?? 0,
      ...(request.raw ? { comment: `sent raw: ${request.headers['(raw)'] ?? `${request.raw.length} bytes`}` } : {}),
    },
    response: response
      ? {
          status: response.status,
          statusText: response.statusText,
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: headerList(response.headers),
          content: { size: response.body.length, mimeType: mime, text: bodyText(response.text, response.json, operation) },
          redirectURL: response.headers.location ?? '',
          headersSize: -1,
          bodySize: response.wire?.bytes ?? -1,
        }
      : { status: 0, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1, _error: r.error ?? 'no answer' },
    cache: {},
    timings: { send: 0, wait: Math.round(r.durationMs), receive: 0 },
    ...(r.caseId ? { _caseId: r.caseId } : { comment: 'sent outside any case: the start-up probe, the key checks, a generated request or a driver call between cases' }),
    ...(operation ? { _operationId: operation } : {}),
  };
}

/** A run a signal stopped says so in the log's comment (HAR 1.2's own field) and in `_interrupted`. */
function interruptionOf(signal: string | undefined): Record<string, string> {
  return signal ? { comment: `interrupted by ${signal}: the exchanges of the cases that ran, up to the stop`, _interrupted: signal } : {};
}

/** The HAR file; `mask` replaces the run's secrets and stored values with what they stand for (har-masking.ts). */
export function harFile(recording: Recording, creator: { version: string; interrupted?: string }, operationOf: OperationOf, mask: HarMask): string {
  const log = {
    log: {
      version: '1.2',
      creator: { name: 'vault-conformance', version: creator.version },
      ...interruptionOf(creator.interrupted),
      entries: recording.exchanges.map((r) => entry(r, operationOf)),
    },
  };
  maskHarLog(log, mask);
  // A last pass over the whole file, for a secret that reached it another way.
  return `${mask.text(JSON.stringify(log, null, 1))}\n`;
}
