import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { compress, documentLimit, editJson, type Coding, type Fault, type Passing, type ProxyOptions } from './tamper.js';
import type { TestCertificates } from './certs.js';

/**
 * Deployments that differ from the reference server only where the specification leaves the
 * choice open, each a proxy in front of the reference server. Every change applies to the API's
 * answers only: the fixture surface (`/_fixtures`), which the account-holder driver uses, passes
 * unchanged, as another deployment's back office would.
 */
export interface Variant {
  name: string;
  /** What the specification leaves open, which this variant takes another way. */
  allowedBy: string;
  fault: Fault;
  options?: ProxyOptions;
  /** What the variant did, counted as it did it, so a run can show the change was real. */
  counts: Record<string, number>;
  /** The reference server behind it runs with these settings (`VAULT_LIMITS`, say). */
  serverEnv?: Record<string, string>;
  /** What the runner is told of the deployment (`--limit`: its declared settings, section 9 item 4). */
  runnerArgs?: string[];
  /** Told of the server behind it before the run, for a variant that asks it something (its clock). */
  behind?(server: Behind): void;
}

/** The reference server behind a variant, as a variant may ask it (its fixture surface). */
export interface Behind {
  base: string;
  adminToken: string;
}

const isApi = (p: Passing) => !p.path.startsWith('/_fixtures');

/** A variant that changes the API's answers (never the fixture surface's) with `change`. */
export function answers(name: string, allowedBy: string, change: (p: Passing, counts: Record<string, number>) => Passing, extra: Partial<Variant> = {}): Variant {
  const counts: Record<string, number> = { answers: 0 };
  return {
    name,
    allowedBy,
    counts,
    ...extra,
    fault: {
      ...extra.fault,
      response: (p) => {
        if (!isApi(p)) return p;
        counts.answers! += 1;
        return change(p, counts);
      },
    },
  };
}

export const count = (counts: Record<string, number>, what: string) => (counts[what] = (counts[what] ?? 0) + 1);

export const isErrorBody = (p: Passing) => p.status >= 400 && /^application\/json/i.test(p.headers['content-type'] ?? '');

// Wording -----------------------------------------------------------------------------------------

const ONE_WORD: Record<number, string> = {
  400: 'Invalid',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Missing',
  405: 'Unsupported',
  408: 'Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Oversized',
  429: 'Throttled',
  431: 'Oversized',
};

/** Section 7: `error` is human-readable and its wording may change. */
export function wording(): Variant {
  return answers('wording: every error one word', 'section 7: `error` is human-readable, wording may change', (p, counts) => {
    if (!isErrorBody(p)) return p;
    count(counts, 'reworded');
    return editJson(p, (b) => (b.error = ONE_WORD[p.status] ?? 'Error'));
  });
}

// Framing and encoding ------------------------------------------------------------------------------

/** RFC 9112 §6: a response body may be framed by chunked transfer coding instead of Content-Length. */
export function chunked(): Variant {
  return answers('framing: every answer chunked', 'RFC 9112 §6.1: chunked framing is any HTTP/1.1 server\'s choice', (p, counts) => {
    count(counts, p.body.length > 1 ? 'chunked in several pieces' : 'chunked');
    return { ...p, chunked: true };
  });
}

/** RFC 9110 §8.4 and §12.5.3: a content coding the request's Accept-Encoding allows. */
export function encoded(coding: Coding): Variant {
  return answers(`encoding: ${coding} when accepted`, 'RFC 9110 §8.4, §12.5.3: a content coding the request accepts', (p, counts) => {
    const out = compress(p, coding);
    if (out.headers['content-encoding'] === coding) count(counts, 'compressed');
    return out;
  });
}

// Where the API is served -------------------------------------------------------------------------

/** `{base_url}` is the deployment's: the API (and its back office) under `/vault`. */
export function basePath(): Variant {
  return answers('base path: the API under /vault', 'the specification\'s `{base_url}` may carry a path', (p) => p, { options: { basePath: '/vault' } });
}

/** HTTPS with a certificate of a test CA. */
export function tls(certificates: TestCertificates): Variant {
  return answers('TLS: HTTPS with a test CA', 'the specification\'s `{base_url}` may be https', (p) => p, {
    options: { tls: { cert: readFileSync(certificates.cert, 'utf8'), key: readFileSync(certificates.key, 'utf8') } },
  });
}

// Headers -----------------------------------------------------------------------------------------

const titleCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/** Headers the specification does not name, `Vary` with one more token, and another order and case. */
export function headers(): Variant {
  return answers('headers: Server, X-Request-Id, one more Vary token, another order', 'sections 4 and 5 name only Cache-Control and Retry-After', (p, counts) => {
    count(counts, 'reordered');
    const vary = p.headers.vary ? `${p.headers.vary}, Origin` : 'Origin';
    const all = { ...p.headers, vary, server: 'vault-edge/2.3', 'x-request-id': randomUUID() };
    return { ...p, headers: Object.fromEntries(Object.entries(all).reverse().map(([k, v]) => [titleCase(k), v])) };
  });
}

/** The same Cache-Control directives in another order, and `no-store` with `private`. */
export function cacheControl(): Variant {
  return answers('Cache-Control: max-age=300, public and no-store, private', 'sections 4.2 and 5 item 4 name directives, not their order', (p, counts) => {
    const value = p.headers['cache-control'];
    if (value === undefined) return p;
    const directives = value.split(',').map((d) => d.trim());
    const widened = directives.includes('no-store');
    count(counts, widened ? 'widened' : 'reordered');
    return { ...p, headers: { ...p.headers, 'cache-control': (widened ? [...directives, 'private'] : [...directives].reverse()).join(', ') } };
  });
}

/** Section 7.1: `Retry-After` in whole seconds, at least 1; this one counts three seconds past the window. */
export function laterRetryAfter(): Variant {
  return answers('Retry-After: three seconds past the window', 'sections 7.1 and 8.3: whole seconds, at least 1', (p, counts) => {
    const value = p.headers['retry-after'];
    if (value === undefined) return p;
    count(counts, 'lengthened');
    return { ...p, headers: { ...p.headers, 'retry-after': String(Number(value) + 3) } };
  });
}

// Bodies ------------------------------------------------------------------------------------------

/** No sentence closes an error body or the 202 envelopes of the two filing operations. */
export function openObjects(): Variant {
  return answers('open objects: an extra member in errors and 202 envelopes', 'sections 4.3, 4.6 and 7 give members, and close no object', (p, counts) => {
    if (isErrorBody(p)) {
      count(counts, 'errors');
      return editJson(p, (b) => (b.requestId = `req_${randomUUID()}`));
    }
    if (p.method === 'POST' && p.status === 202 && p.path === '/v1/recipes') {
      count(counts, 'envelopes');
      return editJson(p, (b) => (b.receivedAt = Date.now()));
    }
    if (p.method === 'POST' && p.status === 202 && p.path === '/v1/logins/requests') {
      count(counts, 'envelopes');
      return editJson(p, (b) => (b.pollAfterSeconds = 5));
    }
    return p;
  });
}

export const isCatalog = (p: Passing) => p.method === 'GET' && p.path === '/v1/tokens' && p.status === 200;

/** Section 2.1 names only `anySite` among a card's fields: the card tokens under other names, the same on every read. */
export function cardTokenNames(): Variant {
  return answers('names: card tokens named pan and cvc', 'section 2.1 names only anySite among a card\'s fields', (p, counts) => {
    if (!isCatalog(p)) return p;
    return editJson(p, (b) => {
      for (const card of (b.cards as { tokens: Record<string, unknown> }[] | undefined) ?? []) {
        const { number, securityCode, ...rest } = card.tokens;
        card.tokens = { pan: number, cvc: securityCode, ...rest };
        count(counts, 'cards');
      }
    });
  });
}

/** Section 4.3: problems listed in `errors`, in no shape the specification gives. */
export function recipeProblemsAsText(): Variant {
  return answers('names: invalid_recipe problems as strings', 'section 4.3 lists problems in errors without a shape', (p, counts) => {
    if (!(p.method === 'POST' && p.path === '/v1/recipes' && p.status === 400)) return p;
    return editJson(p, (b) => {
      if (!Array.isArray(b.errors)) return;
      count(counts, 'listed');
      b.errors = (b.errors as { path?: string; message: string }[]).map((e) => (e.path ? `${e.path}: ${e.message}` : e.message));
    });
  });
}

/** Section 2.1 says when relatedLogins is present, not what its entries hold. */
export function relatedLoginsOtherwise(): Variant {
  return answers('names: relatedLogins entries without a label', 'section 2.1 names relatedLogins, not its entries', (p, counts) => {
    if (!isCatalog(p)) return p;
    return editJson(p, (b) => {
      if (!Array.isArray(b.relatedLogins)) return;
      b.relatedLogins = (b.relatedLogins as { website: string }[]).map((entry) => ({ site: entry.website, sharesSiteName: true }));
      count(counts, 'lists');
    });
  });
}

// Account-holder links ----------------------------------------------------------------------------

export const LINK = /^\/v1\/(approvals|signup-requests|cvv-requests|challenge-requests)\//;

/** Other names for the members of a link's body; `offersDeclared` is the one section 4.11 names. */
const LINK_NAMES: Record<string, string> = {
  kind: 'holdReason',
  status: 'state',
  website: 'site',
  email: 'emailAddress',
  approvalFailure: 'blockedBy',
  at: 'approvedTotal',
};

function renameLinkMembers(body: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(body)) {
    if (name === 'offersDeclared') continue;
    delete body[name];
    body[LINK_NAMES[name] ?? `holder${name[0]!.toUpperCase()}${name.slice(1)}`] = value;
  }
}

/** Section 4.11: the links' bodies are not shown; only `offersDeclared` and the error codes are named. */
export function linksJsonOnly(): Variant {
  const variant = answers('link bodies: JSON only, other member names', 'section 4.11: response bodies of the links are not shown', (p, counts) => {
    if (!LINK.test(p.path)) return p;
    count(counts, 'links');
    // One representation: nothing varies with Accept any more.
    const { vary: _, ...headers } = p.headers;
    if (p.status >= 400) return { ...p, headers };
    count(counts, 'renamed');
    return editJson({ ...p, headers }, renameLinkMembers);
  });
  variant.fault.forward = (head) => {
    if (!LINK.test(head.path)) return head.headers;
    if (/text\/html/i.test(head.headers.accept ?? '')) count(variant.counts, 'asked for a page');
    return { ...head.headers, accept: 'application/json' };
  };
  return variant;
}

// Webhook signatures ---------------------------------------------------------------------------------

const WEBHOOK_PATH = /^\/_fixtures\/accounts\/[^/]+\/cards\/([^/]+)\/webhook$/;

/**
 * Section 6 item 6: the signature header and the format of `t` are the deployment's. This one
 * signs in `X-Acme-Signature` (`sha256=<base64>`), with `t` an ISO 8601 time in another header,
 * `X-Acme-Timestamp`. Its back office registers a relay of the variant's own as each card's
 * endpoint; the relay takes the reference server's delivery, signs it again its way with the
 * card's secret (learnt from the back office's answer), and passes it on to the runner's receiver
 * with the reference's own signature header removed, answering the server as the receiver answers.
 */
export function otherSignature(): Variant & { close(): Promise<void> } {
  const counts: Record<string, number> = { resigned: 0 };
  const secrets = new Map<string, string>();
  const relay = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = decodeURIComponent((req.url ?? '').replace(/^\/relay\//, ''));
      const card = (JSON.parse(body.toString('utf8')) as { agent_card_id?: string }).agent_card_id ?? '';
      const t = new Date().toISOString();
      const signature = createHmac('sha256', secrets.get(card) ?? 'unknown').update(`${t}.`).update(body).digest('base64');
      const headers = { 'content-type': 'application/json', 'x-acme-timestamp': t, 'x-acme-signature': `sha256=${signature}`, 'content-length': String(body.length) };
      count(counts, 'resigned');
      const onward = http.request(target, { method: 'POST', headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers.location ? { location: answer.headers.location } : {});
        answer.pipe(res);
      });
      onward.on('error', () => res.destroy());
      res.on('close', () => onward.destroy());
      onward.end(body);
    });
  });
  relay.listen(0, '127.0.0.1');
  relay.unref();
  const relayUrl = (url: string) => `http://127.0.0.1:${(relay.address() as AddressInfo).port}/relay/${encodeURIComponent(url)}`;
  return {
    name: 'webhooks: signed in X-Acme-Signature, t in ISO 8601 in X-Acme-Timestamp',
    allowedBy: 'section 6 item 6: the signature header and the timestamp format are not shown',
    counts,
    fault: {
      rewrite: (head) => {
        if (head.method !== 'PUT' || !WEBHOOK_PATH.test(head.path)) return undefined;
        return (body) => {
          const sent = JSON.parse(body.toString('utf8')) as { url: string };
          return Buffer.from(JSON.stringify({ ...sent, url: relayUrl(sent.url) }));
        };
      },
      response: (p) => {
        const card = WEBHOOK_PATH.exec(p.path)?.[1];
        if (card && p.method === 'GET' && p.status === 200) secrets.set(card, (JSON.parse(p.body.toString('utf8')) as { signingSecret: string }).signingSecret);
        return p;
      },
    },
    close: () => new Promise<void>((resolve) => (relay.closeAllConnections(), relay.close(() => resolve()))),
  };
}
