import { createHash, randomUUID } from 'node:crypto';
import { answers, count, isCatalog, isErrorBody, LINK, type Variant } from './variants.js';
import { documentLimit, editJson, type Passing } from './tamper.js';
import { formatProblem, fromOwnFormat, isFullBundle, refusedUnread, toOwnFormat, unreadable, utf8 } from './recipe-format.js';

/**
 * Choices another team makes where the specification leaves them open, one builder per choice,
 * each counting what it changed. teams.ts puts them together into whole deployments.
 */

const isJson = (p: Passing) => /^application\/json/i.test(p.headers['content-type'] ?? '');
const isLookup = (p: Passing) => p.method === 'GET' && p.path === '/v1/recipes' && p.query.has('url');

function sentJson(p: Pick<Passing, 'seen'>): Record<string, unknown> | undefined {
  try {
    const sent = JSON.parse(p.seen) as unknown;
    return sent && typeof sent === 'object' && !Array.isArray(sent) ? (sent as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// Media types -------------------------------------------------------------------------------------

/** Section 4 asks for JSON, not for one media type: error bodies as `application/problem+json` (RFC 9457, a +json type). */
export function problemJsonErrors(): Variant {
  return answers('errors as application/problem+json', 'section 4: every body is JSON; RFC 6839 makes a +json type JSON', (p, counts) => {
    if (!isErrorBody(p)) return p;
    count(counts, 'problem+json');
    return { ...p, headers: { ...p.headers, 'content-type': 'application/problem+json' } };
  });
}

/** Every JSON answer of its own vendor type, with a charset parameter. */
export function vendorMediaType(): Variant {
  return answers('every JSON answer as application/vnd.vault+json; charset=utf-8', 'section 4: every body is JSON; RFC 6839 makes a +json type JSON', (p, counts) => {
    if (!isJson(p)) return p;
    count(counts, 'vendor type');
    return { ...p, headers: { ...p.headers, 'content-type': 'application/vnd.vault+json; charset=utf-8' } };
  });
}

// The catalog's containers ------------------------------------------------------------------------

/** Section 2.1 names a card's tokens, not what holds them: a list. */
export function cardTokensListed(): Variant {
  return answers("card tokens as a list", "section 2.1 names a card's number and security-code tokens, not the member that holds them", (p, counts) => {
    if (!isCatalog(p)) return p;
    return editJson(p, (b) => {
      for (const card of (b.cards as { tokens: Record<string, unknown> }[] | undefined) ?? []) {
        card.tokens = Object.values(card.tokens) as unknown as Record<string, unknown>;
        count(counts, 'token lists');
      }
    });
  });
}

/** A card's label of their own: stable, from its first token, never from its number. */
const cardLabel = (card: { tokens?: unknown }) => `card${createHash('sha256').update(JSON.stringify(card.tokens ?? null)).digest('hex').slice(0, 10)}`;

function keyedBy<T>(items: T[], label: (item: T) => string): Record<string, T> {
  return Object.fromEntries(items.map((item) => [label(item), item]));
}

/** Section 2.1 does not say how `cards`, `logins` and `relatedLogins` hold their entries: objects keyed by label. */
export function catalogKeyedByLabel(): Variant {
  return answers('catalog members as objects keyed by label', 'section 2.1 names the members, not their containers', (p, counts) => {
    if (!isCatalog(p)) return p;
    return editJson(p, (b) => {
      if (Array.isArray(b.cards)) b.cards = keyedBy(b.cards as { tokens?: unknown }[], cardLabel);
      for (const member of ['logins', 'relatedLogins']) {
        if (Array.isArray(b[member])) b[member] = keyedBy(b[member] as { label: string }[], (l) => l.label);
      }
      count(counts, 'keyed');
    });
  });
}

// The links' answers ------------------------------------------------------------------------------

const isDecision = (p: Passing) => p.method === 'POST' && LINK.test(p.path);

/**
 * Section 4.11 shows none of the links' answers: a decision taken answers `decided` (204 with no
 * body, or 201 with the decision), and an approval that cannot complete (section 3: it stays
 * pending, the failure shown to the account holder) answers `blocked`: 409 with the reason, or
 * 202 (accepted, not done) with it.
 */
export function linkDecisions(decided: 204 | 201, blocked: 409 | 202): Variant {
  return answers(`link decisions: ${decided}; an approval that cannot complete, ${blocked}`, 'section 4.11 shows no answer of the links', (p, counts) => {
    if (!isDecision(p) || p.status !== 200) return p;
    let failure: unknown;
    try {
      failure = (JSON.parse(p.body.toString('utf8')) as { approvalFailure?: unknown }).approvalFailure;
    } catch {
      failure = undefined;
    }
    if (typeof failure === 'string') {
      count(counts, 'blocked');
      const body =
        blocked === 409
          ? { code: 'approval_blocked', error: `The approval cannot complete: ${failure.replace(/_/g, ' ')}.`, reason: failure }
          : { state: 'waiting', blockedBy: failure };
      return { ...p, status: blocked, headers: { ...p.headers, 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from(JSON.stringify(body)) };
    }
    count(counts, 'decided');
    if (decided === 201) return { ...p, status: 201 };
    const { 'content-type': _, ...headers } = p.headers;
    return { ...p, status: 204, headers, body: Buffer.alloc(0) };
  });
}

/**
 * Section 4.11 makes the links single-use and self-expiring without a status for a used one: a
 * used or expired link answers `status` with a code of its own; an unknown one, or one of a
 * deleted account (which reads as not found), 404. The links' tokens and accounts are learnt from
 * the back office's answers, as the deployment knows them.
 */
export function linkRefusals(status: 410 | 403, code: string): Variant {
  const seen = new Set<string>();
  const accountOf = new Map<string, string>();
  const deleted = new Set<string>();
  const variant = answers(`used links: ${status} ${code}`, 'section 4.11 gives no status for a used or expired link', (p, counts) => {
    const token = LINK.test(p.path) ? p.path.split('/')[3] : undefined;
    if (!token) return p;
    if (p.status >= 200 && p.status < 300) seen.add(token);
    if (p.status !== 404) return p;
    const account = accountOf.get(token);
    const used = seen.has(token) && !(account && deleted.has(account));
    count(counts, used ? 'gone' : 'unknown link');
    const body = used ? { code, error: 'This link was used or has expired.' } : { code: 'link_unknown', error: 'There is no such link.' };
    return { ...p, status: used ? status : 404, body: Buffer.from(JSON.stringify(body)) };
  });
  const answer = variant.fault.response!;
  variant.fault.response = (p) => {
    const account = /^\/_fixtures\/accounts\/([^/]+)(?:\/(purchase-approvals|cvv-requests|challenge-requests|links))?$/.exec(p.path);
    if (account && p.method === 'DELETE' && !account[2]) deleted.add(decodeURIComponent(account[1]!));
    if (account && account[2] && p.status < 300) {
      try {
        const b = JSON.parse(p.body.toString('utf8')) as { token?: string; links?: { token: string }[] };
        for (const t of [b.token, ...(b.links ?? []).map((l) => l.token)]) if (t) accountOf.set(t, decodeURIComponent(account[1]!));
      } catch {
        // Not a body that names tokens.
      }
    }
    return answer(p);
  };
  return variant;
}

// Members of its own -------------------------------------------------------------------------------

/**
 * Members that say something of the answer itself, new in every answer: a request id and a serving
 * time, in a `meta` member or at the top level. Never on a lookup, which section 2.3 closes.
 */
export function perAnswerMembers(where: 'meta' | 'top'): Variant {
  return answers(`per-answer members (${where === 'meta' ? 'meta.requestId, meta.servedAt' : 'traceId, generatedAt'})`, 'sections 2, 4 and 7 give members, and close no object but the lookup', (p, counts) => {
    if (!isJson(p) || isLookup(p)) return p;
    return editJson(p, (b) => {
      if (Array.isArray(b)) return;
      count(counts, 'stamped');
      if (where === 'meta') b.meta = { requestId: randomUUID(), servedAt: new Date().toISOString() };
      else Object.assign(b, { traceId: randomUUID().replace(/-/g, ''), generatedAt: Date.now() });
    });
  });
}

/** Section 9 item 3: an older deployment leaves `passwordOwnerManaged` out, which means false. */
export function ownerManagedAbsent(): Variant {
  return answers('passwordOwnerManaged left out when false', 'section 9 item 3: absent means false', (p, counts) => {
    if (p.method !== 'GET' || !p.path.startsWith('/v1/logins/requests/') || p.status !== 200) return p;
    return editJson(p, (b) => {
      if (b.passwordOwnerManaged !== false) return;
      delete b.passwordOwnerManaged;
      count(counts, 'absent');
    });
  });
}

/**
 * Sections 4.6, 4.8 and 4.9 read two ways for a missing member; this deployment gives it the
 * member's own code: `website` and `email` as invalid_*, `username` as invalid_username.
 */
export function memberCodes(): Variant {
  return answers('a missing member gets its own code', 'sections 4.6 and 4.8 read two ways for a missing member', (p, counts) => {
    if (p.method !== 'POST' || p.status !== 400 || !isErrorBody(p) || !/^\/v1\/logins\/(requests|username)$/.test(p.path)) return p;
    const sent = sentJson(p);
    if (!sent) return p;
    const member = p.path.endsWith('requests') ? (!('website' in sent) ? 'website' : !('email' in sent) ? 'email' : undefined) : !('username' in sent) ? 'username' : undefined;
    if (!member) return p;
    count(counts, 'own code');
    return editJson(p, (b) => (b.code = `invalid_${member}`));
  });
}

/**
 * Sections 4.8 and 4.9 read two ways for a write without `label`: no login has that label, so the
 * username write answers 404 not_found and the rotation 409 not_rotatable.
 */
export function missingLabelUnknown(): Variant {
  return answers('a write without label: no such login', 'sections 4.8 and 4.9 read two ways for a missing label', (p, counts) => {
    if (p.method !== 'POST' || p.status !== 400 || !isErrorBody(p) || !/^\/v1\/logins\/(username|password)$/.test(p.path)) return p;
    const sent = sentJson(p);
    if (!sent || 'label' in sent || !p.body.includes('"bad_request"')) return p;
    count(counts, 'no such label');
    const [status, code] = p.path.endsWith('username') ? [404, 'not_found'] : [409, 'not_rotatable'];
    return { ...editJson(p, (b) => Object.assign(b, { code, error: 'No login of this key has that label.' })), status };
  });
}

// Tokens ------------------------------------------------------------------------------------------

function mapTokens(value: unknown, token: (t: string) => string, inTokens = false): unknown {
  if (typeof value === 'string') return inTokens ? token(value) : value;
  if (Array.isArray(value)) return value.map((v) => mapTokens(v, token, inTokens));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapTokens(v, token, inTokens || k === 'tokens')]));
}

/** Section 2.1: tokens are opaque strings, in a format of its own, the same for the same value; `extra` members beside the catalog's. */
export function ownTokens(token: (t: string) => string, extra: Record<string, unknown> = {}): Variant {
  return answers('tokens of its own format', 'section 2.1: tokens are opaque strings', (p, counts) => {
    if (p.status !== 200 || !isJson(p) || !(p.path === '/v1/tokens' || p.path.startsWith('/v1/logins'))) return p;
    count(counts, 'tokens');
    return editJson(p, (b) => {
      const mapped = mapTokens(b, token) as Record<string, unknown>;
      for (const key of Object.keys(b)) delete b[key];
      Object.assign(b, mapped, p.path === '/v1/tokens' ? extra : {});
    });
  });
}

// Recipes -----------------------------------------------------------------------------------------

/**
 * Section 2.2 does not show a recipe body's structure: this registry reads its own format, `tag`,
 * and refuses any other with 400 invalid_recipe once it has checked the key, before it reads
 * anything else of the submission (a claim's note included). `beforeJson`: a body that is not JSON is refused the same way, for its
 * format, before it is parsed; otherwise it goes on to be refused as not JSON. The full bundle
 * shows bodies in the format.
 */
export function ownRecipeFormat(tag: string, beforeJson: boolean): Variant {
  const variant = answers(`recipes in ${tag}, the format checked first`, 'section 2.2: the structure of a recipe body is not shown', (p, counts) => {
    if (refusedUnread(p, tag)) return { ...p, body: formatProblem(tag) };
    if (!isFullBundle(p)) return p;
    return editJson(p, (b) => {
      for (const entry of (b.recipes as { recipe?: Record<string, unknown> }[]) ?? []) {
        if (!entry.recipe) continue;
        entry.recipe = toOwnFormat(entry.recipe, tag);
        count(counts, 'recipes shown');
      }
    });
  });
  variant.fault.rewrite = (head) => {
    if (head.method !== 'POST' || head.path !== '/v1/recipes') return undefined;
    return (body) => {
      // Over the cap, the reference behind refuses it as it arrived.
      if (body.length > documentLimit('recipe-submission-body')) return body;
      const text = utf8(body);
      let sent: unknown;
      try {
        sent = text === undefined ? undefined : JSON.parse(text);
      } catch {
        sent = undefined;
      }
      if (!sent || typeof sent !== 'object') {
        if (!beforeJson) return body;
        count(variant.counts, 'refused before parsing');
        return unreadable(tag);
      }
      const wrapper = sent as Record<string, unknown>;
      const wrapped = typeof wrapper.recipe === 'object' && wrapper.recipe !== null;
      const recipe = fromOwnFormat(wrapped ? wrapper.recipe : sent, tag);
      if (!recipe) {
        count(variant.counts, 'refused format');
        return unreadable(tag);
      }
      count(variant.counts, 'translated');
      return Buffer.from(JSON.stringify(wrapped ? { ...wrapper, recipe } : recipe));
    };
  };
  return variant;
}
