import { answers, count, isCatalog, type Behind, type Variant } from './variants.js';
import { documentLimit, documentPlanLimit, editJson, type Answer, type Passing } from './tamper.js';
import { sentRecipeKey } from './recipe-format.js';

/**
 * Choices of another team that the reference server cannot be configured for, made in the proxy:
 * contributions that show a little after their 202, body caps read as decimal kilobytes, and
 * per-minute catalog windows that start at the first counted request.
 */

function refusal(status: number, code: string, error: string, headers: Record<string, string> = {}): Answer {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }, body: Buffer.from(JSON.stringify({ code, error })) };
}

/**
 * Section 3: screening runs after the 202, so a contribution shows in the index, the full bundle
 * and lookups only `delayMs` after it was accepted.
 */
export function lateContributions(delayMs: number): Variant {
  const accepted = new Map<string, number>();
  const held = (key: unknown) => typeof key === 'string' && Date.now() - (accepted.get(key) ?? -Infinity) < delayMs;
  return answers(`contributions shown ${delayMs} ms after their 202`, 'section 3: screening runs after the 202', (p, counts) => {
    if (p.method === 'POST' && p.path === '/v1/recipes' && p.status === 202) {
      const key = sentRecipeKey(p.seen);
      if (key) accepted.set(key, Date.now());
      return p;
    }
    if (p.method !== 'GET' || p.path !== '/v1/recipes' || p.status !== 200) return p;
    return editJson(p, (b) => {
      if (p.query.has('url')) {
        for (const [slot, summary] of Object.entries(b)) {
          if (!held((summary as { id?: unknown } | null)?.id)) continue;
          b[slot] = null;
          count(counts, 'held back');
        }
        return;
      }
      const all = (b.recipes as { key?: unknown }[] | undefined) ?? [];
      const shown = all.filter((e) => !held(e.key));
      if (shown.length < all.length) count(counts, 'held back');
      b.recipes = shown;
    });
  });
}

/**
 * Sections 4.3 and 4.5 give the caps in kilobytes: read as 1,000 bytes, a recipe body over 64,000
 * bytes is refused with 413 invalid_recipe, a login write over 4,000 with 413 bad_request, by the
 * deployment's edge before the reference behind it reads them.
 */
export function decimalBodyCaps(): Variant {
  const variant = answers('body caps of 64,000 and 4,000 bytes', 'sections 4.3 and 4.5: a kilobyte read as 1,000 bytes', (p) => p);
  const caps: [RegExp, number, string][] = [
    [/^\/v1\/recipes$/, (documentLimit('recipe-submission-body') / 1024) * 1000, 'invalid_recipe'],
    [/^\/v1\/logins\/(requests|username|password)$/, (documentLimit('login-write-body') / 1024) * 1000, 'bad_request'],
  ];
  variant.fault.rewrite = (head) => {
    const cap = head.method === 'POST' ? caps.find(([path]) => path.test(head.path)) : undefined;
    if (!cap) return undefined;
    return (body) => {
      if (body.length <= cap[1]) return body;
      count(variant.counts, 'over a decimal cap');
      return refusal(413, cap[2], `The body is larger than ${cap[1]} bytes.`);
    };
  };
  return variant;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Section 8.1 item 4: per-minute windows are fixed, not sliding; this deployment starts each at
 * the first request it counts and ends it a minute later (the reference aligns them to the clock's
 * minutes). The reference behind runs with its own catalog limits raised out of reach
 * (`serverEnv`); the proxy counts each key's and each account's reads by plan, on the
 * deployment's clock, refuses past the limit with 429 `rate_limited` and the seconds left in
 * `Retry-After`, and counts nothing it refuses. Keys, accounts and plans are learnt from the back
 * office's answers.
 */
export function anchoredCatalogWindows(): Variant {
  const planOf = new Map<string, string>();
  const accountOf = new Map<string, string>();
  const windows = new Map<string, Window>();
  let behind: Behind | undefined;
  const clock = async (): Promise<number> => {
    if (!behind) throw new Error('anchoredCatalogWindows needs the server behind it (variant.behind)');
    const res = await fetch(`${behind.base}/_fixtures/clock`, { headers: { authorization: `Bearer ${behind.adminToken}` } });
    return ((await res.json()) as { now: number }).now;
  };
  const learn = (p: Passing) => {
    const account = /^\/_fixtures\/accounts(?:\/([^/]+))?(\/keys)?$/.exec(p.path);
    if (!account || p.status >= 300) return;
    let sent: { plan?: string } = {};
    let answered: { accountId?: string; key?: string } = {};
    try {
      sent = p.seen ? (JSON.parse(p.seen) as typeof sent) : {};
      answered = p.body.length > 0 ? (JSON.parse(p.body.toString('utf8')) as typeof answered) : {};
    } catch {
      return;
    }
    if (p.method === 'POST' && !account[1] && answered.accountId) planOf.set(answered.accountId, sent.plan ?? 'Free');
    if (p.method === 'PATCH' && account[1] && !account[2] && sent.plan) planOf.set(decodeURIComponent(account[1]), sent.plan);
    if (p.method === 'POST' && account[1] && account[2] && answered.key) accountOf.set(answered.key, decodeURIComponent(account[1]));
  };
  const variant: Variant = {
    name: 'per-minute catalog windows from the first counted request',
    allowedBy: 'section 8.1 item 4: fixed windows, which read as starting at the first counted request',
    counts: {},
    serverEnv: { VAULT_LIMITS: 'catalog-per-key=1000000,catalog-per-account=1000000' },
    behind: (server) => void (behind = server),
    fault: {
      response: async (p) => {
        if (p.path.startsWith('/_fixtures/')) {
          learn(p);
          return p;
        }
        const key = /^Bearer (.+)$/.exec(p.requestHeaders.authorization ?? '')?.[1];
        const account = key ? accountOf.get(key) : undefined;
        if (!isCatalog(p) || !key || !account) return p;
        const plan = planOf.get(account) ?? 'Free';
        const now = await clock();
        const scopes = [
          { id: `key ${key}`, ...documentPlanLimit('catalog-per-key', plan) },
          { id: `account ${account}`, ...documentPlanLimit('catalog-per-account', plan) },
        ].map((s) => ({ ...s, window: windows.get(s.id) }));
        const live = (w: Window | undefined, windowMs: number): w is Window => w !== undefined && now < w.start + windowMs;
        const full = scopes.find((s) => live(s.window, s.windowMs) && s.window.count >= s.value);
        if (full) {
          count(variant.counts, 'refused in a window');
          const left = Math.max(1, Math.ceil((full.window!.start + full.windowMs - now) / 1000));
          return { ...p, ...refusal(429, 'rate_limited', 'Too many catalog requests this minute.', { 'retry-after': String(left) }) };
        }
        for (const s of scopes) {
          if (live(s.window, s.windowMs)) s.window.count += 1;
          else windows.set(s.id, { start: now, count: 1 });
        }
        count(variant.counts, 'counted');
        return p;
      },
    },
  };
  return variant;
}
