import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import type { Operation } from '../contract.js';
import { contract, type TestServer } from './support.js';
import { ADMIN, fixture, links, nextMinute, signupAccount, startSignupServer, type Account } from './signup-support.js';
import { countPending } from '../store/signup-requests.js';
import { loadBackOfficeContract } from '../http/back-office/document.js';

/**
 * Request bodies (the document's "Request bodies", sections 4.3, 4.5, 7.1): every operation that
 * takes a JSON body refuses, with its own 400 code and never a 500, a body nested deeper than the
 * document's bound, a body that is not UTF-8, and a string that escapes half a surrogate pair.
 * Account-holder link decisions look their link up before their body and cap it; the retired
 * POST /v1/logins answers 410 whatever its body.
 */

let t: TestServer;
let a: Account;
beforeAll(async () => {
  t = await startSignupServer();
  a = await signupAccount(t);
});
afterAll(() => t.close());

const NESTING = contract().limit('body-nesting-depth').value!;

/** The operations of the document that take a JSON body, with a path to call for each. */
const bodyOperations = [...contract().operations.values()].filter((op) => op.readsJson);

/** A live link of each kind the decisions take, made on the fixture surface. */
async function linkPath(op: Operation): Promise<string> {
  if (op.operationId === 'decidePurchaseApproval') {
    const res = await fixture(t, 'POST', `/accounts/${a.accountId}/purchase-approvals`, {});
    return `/v1/approvals/${encodeURIComponent(((await res.json()) as { token: string }).token)}/decide`;
  }
  nextMinute(t);
  const filed = await t.call('/v1/logins/requests', { method: 'POST', key: a.key, json: { website: `s${Date.now()}${Math.random().toString(36).slice(2, 8)}.com`, email: 'agent@example.com' } });
  expect(filed.status).toBe(202);
  const { requestId } = (await filed.json()) as { requestId: string };
  const link = (await links(t, a.accountId)).find((l) => l.requestId === requestId)!;
  return `/v1/signup-requests/${encodeURIComponent(link.token)}`;
}

async function pathOf(op: Operation): Promise<string> {
  return op.path.includes('{token}') ? linkPath(op) : op.path;
}

async function post(path: string, body: string | Buffer) {
  nextMinute(t);
  const res = await t.call(path, { method: 'POST', key: a.key, headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as { code: string; error: string; errors?: unknown[] } };
}

const nested = (depth: number, kind: 'array' | 'object', inner = '1') => {
  let text = inner;
  for (let i = 0; i < depth; i++) text = kind === 'array' ? `[${text}]` : `{"a":${text}}`;
  return text;
};

describe('nesting depth', () => {
  it('when the document is read, then the bound is 64 levels and every operation with a JSON body lists it', () => {
    expect(NESTING).toBe(64);
    for (const op of bodyOperations) expect(op.limits.map((l) => l.id), op.operationId).toContain('body-nesting-depth');
  });

  it('when a body nests deeper than the bound, then every operation that takes one answers its own 400, never 500', async () => {
    expect(bodyOperations.map((op) => op.operationId).sort()).toEqual(
      ['decidePurchaseApproval', 'decideSignupApproval', 'fileSignupRequest', 'rotateLoginPassword', 'setLoginUsername', 'submitRecipe'].sort(),
    );
    for (const op of bodyOperations) {
      const cap = op.bodyLimit!.value!;
      // One level over the bound, and as deep as the body cap allows (the 3.6 KB, 1,800-level body).
      for (const depth of [NESTING + 1, Math.floor((cap - 40) / 2)]) {
        for (const kind of ['array', 'object'] as const) {
          const inner = nested(depth, kind);
          if (Buffer.byteLength(inner) > cap - 40) continue;
          const res = await post(await pathOf(op), `{"label":"x","website":"acme.com","email":"a@b.co","decision":"approve","x":${inner}}`);
          expect(res.status, `${op.operationId} ${kind} ${depth}`).toBe(400);
          expect(res.body.code, `${op.operationId} ${kind} ${depth}`).toBe(op.validationErrorCode);
          expect(res.body.error).toMatch(/deeper than 64 levels/);
          if (op.validationErrorCode === 'invalid_recipe') expect(res.body.errors).toEqual([{ path: '', message: expect.stringMatching(/deeper than 64/) }]);
        }
      }
    }
    expect(t.logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('when a recipe of any shape nests past the bound, with member names the server removes, then 400 invalid_recipe', async () => {
    const submit = [...contract().operations.values()].find((op) => op.operationId === 'submitRecipe')!;
    await fc.assert(
      // Up to 8,000 levels of at most 7 bytes each stay under the 64 KB cap.
      fc.asyncProperty(fc.integer({ min: NESTING + 1, max: 8_000 }), fc.array(fc.constantFrom('[', '{"$a":', '{"b":'), { minLength: 1, maxLength: 3 }), async (depth, openers) => {
        let open = '';
        let close = '';
        for (let i = 0; i < depth; i++) {
          const o = openers[i % openers.length]!;
          open += o;
          close = (o === '[' ? ']' : '}') + close;
        }
        const res = await post(submit.path, `{"key":"x.com","kind":"merchant","status":"partial","steps":[${open}0${close}]}`);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_recipe');
      }),
      { numRuns: 25 },
    );
    expect(t.logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('when a recipe nests exactly as deep as the bound, then it is accepted; one level more is refused', async () => {
    // The body and its steps array are two levels; the step inside them makes up the rest.
    const recipe = (levels: number) => `{"key":"depth${Date.now()}.com","kind":"merchant","status":"partial","steps":[${nested(levels, 'array', '0')}]}`;
    const accepted = await post('/v1/recipes', recipe(NESTING - 2));
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    const refused = await post('/v1/recipes', recipe(NESTING - 1));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/deeper than 64 levels/);
  });
});

describe('text that is not UTF-8', () => {
  // A lone continuation byte, a truncated sequence, an overlong '/', an encoded surrogate, a byte no UTF-8 has.
  const invalid = [[0x80], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff, 0xfe]].map((b) => Buffer.from(b));
  const around = (before: string, bytes: Buffer, after: string) => Buffer.concat([Buffer.from(before), bytes, Buffer.from(after)]);

  it('when a signup request names a website with bytes that are not UTF-8, then 400 bad_request and no request is filed', async () => {
    const pending = await countPending(t.db, a.accountId, t.clock.now());
    for (const bytes of invalid) {
      const res = await post('/v1/logins/requests', around('{"website":"ex', bytes, '.com","email":"agent@example.com"}'));
      expect(res.status, bytes.toString('hex')).toBe(400);
      expect(res.body.code).toBe('bad_request');
      expect(res.body.error).toBe('The request body is not valid UTF-8.');
    }
    expect(await countPending(t.db, a.accountId, t.clock.now())).toBe(pending);
  });

  it('when any operation with a JSON body gets bytes that are not UTF-8, then its own 400', async () => {
    for (const op of bodyOperations) {
      const res = await post(await pathOf(op), around('{"label":"x', invalid[4]!, '","decision":"approve"}'));
      expect(res.status, op.operationId).toBe(400);
      expect(res.body.code, op.operationId).toBe(op.validationErrorCode);
    }
  });

  it('when a string escapes half of a surrogate pair, then 400; a whole pair is a character and is read', async () => {
    for (const op of bodyOperations) {
      const res = await post(await pathOf(op), '{"label":"x","website":"ex\\ud800.com","email":"a@b.co","decision":"approve"}');
      expect(res.status, op.operationId).toBe(400);
      expect(res.body.code, op.operationId).toBe(op.validationErrorCode);
      expect(res.body.error).toMatch(/surrogate/);
    }
    const key = await post('/v1/recipes', '{"key":"x.com","kind":"merchant","status":"partial","\\udfff":1}');
    expect(key.status).toBe(400);
    const pair = await post('/v1/recipes', `{"key":"pair${Date.now()}.com","kind":"merchant","status":"partial","steps":["\\ud83d\\ude00"]}`);
    expect(pair.status).toBe(202);
  });
});

describe('member names JavaScript gives a meaning to', () => {
  const names = ['__proto__', 'constructor', 'prototype'];

  it('when any operation with a JSON body gets a member named __proto__, constructor or prototype, at any depth, then its own 400', async () => {
    for (const op of bodyOperations) {
      // One signup link serves every body (each filing would count toward the five pending); a
      // purchase approval lives five minutes, fewer than the minutes these posts move the clock.
      const signupLink = op.operationId === 'decideSignupApproval' ? await pathOf(op) : undefined;
      for (const name of names) {
        for (const body of [
          `{"label":"x","website":"acme.com","email":"a@b.co","decision":"approve","${name}":{"polluted":"yes"}}`,
          `{"label":"x","website":"acme.com","email":"a@b.co","decision":"approve","steps":[{"a":{"${name}":1}}]}`,
          // The same name written with escapes is the same name.
          `{"label":"x","website":"acme.com","email":"a@b.co","decision":"approve","\\u005f\\u005fproto\\u005f\\u005f":{"polluted":"yes"}}`,
        ]) {
          const res = await post(signupLink ?? (await pathOf(op)), body);
          expect(res.status, `${op.operationId} ${body}`).toBe(400);
          expect(res.body.code, op.operationId).toBe(op.validationErrorCode);
          expect(res.body.error).toMatch(/__proto__, constructor or prototype/);
        }
      }
      // Refused bodies decided nothing: the link still takes a decision (which frees its pending place).
      if (signupLink) expect((await post(signupLink, '{"decision":"deny"}')).status).toBe(200);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(t.logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('when a recipe names them, then invalid_recipe lists each member as a problem at its own path', async () => {
    const res = await post('/v1/recipes', '{"key":"x.com","kind":"merchant","status":"partial","__proto__":{"a":1},"steps":[{"constructor":{"prototype":2}}]}');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: '/__proto__', message: expect.stringMatching(/refuses/) },
      { path: '/steps/0/constructor', message: expect.stringMatching(/refuses/) },
      { path: '/steps/0/constructor/prototype', message: expect.stringMatching(/refuses/) },
    ]);
  });

  it('when a fixture body names one, then 400 bad_request', async () => {
    const res = await t.call('/_fixtures/accounts', { method: 'POST', key: ADMIN, headers: { 'content-type': 'application/json' }, body: '{"plan":"Free","constructor":{"prototype":{"polluted":1}}}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('bad_request');
  });

  it('when a name only contains one of them, or a string value is one, then the body is read as any other', async () => {
    const ok = await post('/v1/recipes', `{"key":"names${Date.now()}.com","kind":"merchant","status":"partial","steps":[{"prototypeId":"constructor","action":"__proto__"}]}`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
  });
});

describe('member names given twice', () => {
  it('when any operation with a JSON body gets an object that names a member twice, at any depth, then its own 400', async () => {
    for (const op of bodyOperations) {
      const signupLink = op.operationId === 'decideSignupApproval' ? await pathOf(op) : undefined;
      for (const body of [
        '{"decision":"deny","website":"acme.com","email":"a@b.co","label":"x","decision":"approve"}',
        '{"decision":"deny","website":"acme.com","email":"a@b.co","label":"x","steps":[{"a":1},{"b":{"c":1,"c":2}}]}',
        // The same name written with escapes is the same name.
        '{"decision":"deny","website":"acme.com","email":"a@b.co","label":"x","\\u0064ecision":"approve"}',
      ]) {
        const res = await post(signupLink ?? (await pathOf(op)), body);
        expect(res.status, `${op.operationId} ${body}`).toBe(400);
        expect(res.body.code, op.operationId).toBe(op.validationErrorCode);
        expect(res.body.error).toMatch(/twice/);
      }
      // Refused bodies decided nothing: the link still takes a decision.
      if (signupLink) {
        const decided = await post(signupLink, '{"decision":"deny"}');
        expect(decided.status).toBe(200);
        expect((decided.body as unknown as { status: string }).status).toBe('denied');
      }
    }
    expect(t.logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('when a recipe names a member twice, then invalid_recipe lists it at its path', async () => {
    const res = await post('/v1/recipes', '{"key":"twice.com","kind":"merchant","status":"partial","steps":[{"action":"click"},{"action":"fill","action":"click"}]}');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_recipe');
    expect(res.body.errors).toEqual([{ path: '/steps/1/action', message: expect.stringMatching(/twice/) }]);
  });

  it('when the same name is in different objects, or a value repeats, then the body is read as any other', async () => {
    const ok = await post('/v1/recipes', `{"key":"twice${Date.now()}.com","kind":"merchant","status":"partial","steps":[{"action":"click","note":"action"},{"action":"click"}]}`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
  });

  it('when random JSON is sent, then a body is refused for a repeated name exactly when one object repeats one', async () => {
    const recipeBody = fc.dictionary(fc.constantFrom('action', 'note', 'a', 'b', 'é', '"', '\\'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    // Writes objects as lists of members, so that a name may repeat, as no JSON.stringify writes it.
    const members = fc.array(fc.tuple(fc.constantFrom('action', 'note', 'a', 'b'), fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 });
    const text = (list: [string, unknown][]) => `{${list.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
    await fc.assert(
      fc.asyncProperty(members, recipeBody, async (list, extra) => {
        const repeats = new Set(list.map(([k]) => k)).size !== list.length;
        const body = `{"key":"random.com","kind":"merchant","status":"partial","steps":[${text(list)}],"x":${JSON.stringify(extra)}}`;
        const res = await post('/v1/recipes', body);
        const named = (res.body.errors ?? []).some((e: any) => /twice/.test(e.message));
        expect(named, body).toBe(repeats);
      }),
      { numRuns: 60 },
    );
  });
});

describe('account-holder link decisions', () => {
  const decisions = bodyOperations.filter((op) => op.path.includes('{token}'));

  /** Sends the headers of a POST with a body that never comes; resolves with the answer. */
  function withoutBody(path: string): Promise<{ status: number; connection: string | undefined; body: any }> {
    return new Promise((resolve, reject) => {
      const url = new URL(t.base + path);
      const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '100' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode!, connection: res.headers.connection, body: JSON.parse(text) });
        });
      });
      req.on('error', reject);
      req.flushHeaders();
    });
  }

  it('when the link is unknown, then 404 at once, before the body arrives, and the connection closes', async () => {
    for (const op of decisions) {
      const res = await withoutBody(op.path.replace('{token}', 'lnk_unknown'));
      expect(res.status, op.operationId).toBe(404);
      expect(res.body.code).toBe('not_found');
      expect(res.connection).toBe('close');
    }
  });

  it('when a decision body is over 1 KB, then 413 bad_request, documented, and nothing is decided', async () => {
    for (const op of decisions) {
      expect(op.bodyLimit?.id).toBe('link-decision-body');
      expect(op.raw.responses['413'], op.operationId).toBeDefined();
      const path = await pathOf(op);
      const big = await post(path, `{"decision":"approve","pad":"${'x'.repeat(op.bodyLimit!.value!)}"}`);
      expect(big.status, op.operationId).toBe(413);
      expect(big.body.code).toBe('bad_request');
      const after = await post(path, '{"decision":"deny"}');
      expect(after.status, `${op.operationId} still pending after the refusal`).toBe(200);
    }
  });
});

describe('fixture surface bodies', () => {
  it('when a fixture body is over its cap, then 413 bad_request, which every fixture operation with a body documents', async () => {
    const fixtures = [...loadBackOfficeContract().operations.values()].filter((op) => op.readsJson);
    expect(fixtures.length).toBeGreaterThan(10);
    for (const op of fixtures) {
      expect(op.bodyLimit?.id, op.operationId).toBe('back-office-request-body');
      expect(loadBackOfficeContract().resolve(op.raw.responses['413']), op.operationId).toBeDefined();
    }
    const cap = fixtures[0]!.bodyLimit!.value!;
    const res = await fixture(t, 'POST', '/accounts', { plan: 'Free', name: 'x'.repeat(cap) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('bad_request');
  });

  it('when a fixture body nests deeper than the bound or is not UTF-8, then 400 bad_request', async () => {
    for (const body of [`{"plan":"Free","x":${nested(NESTING + 1, 'array')}}`, Buffer.from([0x7b, 0xff, 0x7d])]) {
      const res = await t.call('/_fixtures/accounts', { method: 'POST', key: ADMIN, headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : new Uint8Array(body) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('bad_request');
    }
  });
});

describe('createLogin (retired)', () => {
  it('when a body of any content is sent, then 410 signup_requires_approval, as without one', async () => {
    const bodies: [string, string | Buffer][] = [
      ['application/json', '{"website":"acme.com"}'],
      ['application/json', '{not json'],
      ['application/json', nested(5000, 'array')],
      ['text/plain', 'hello'],
      ['application/octet-stream', Buffer.from([0xff, 0x00, 0xfe])],
    ];
    for (const [type, body] of bodies) {
      const res = await t.call('/v1/logins', { method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : new Uint8Array(body) });
      expect(res.status, `${type} ${String(body).slice(0, 20)}`).toBe(410);
      expect(((await res.json()) as { code: string }).code).toBe('signup_requires_approval');
    }
    const op = contract().operations.get('createLogin')!;
    const requestBody = contract().resolve(op.raw.requestBody);
    expect(requestBody.required).toBe(false);
    expect(Object.keys(requestBody.content)).toEqual(['*/*']);
  });
});
