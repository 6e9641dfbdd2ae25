import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Exchange } from '../runner/exchange.js';
import { NotRun } from '../runner/outcome.js';
import { decideSignup, fileSignup, pollBody, signupSetup } from './shared-steps.js';
import { inOneFixedWindow } from './fixed-window.js';
import { BUDGET, PENDING, WRITES, paddedJson } from './signup-steps.js';
import { reference, spec } from '../runner/basis.js';
import { kilobyteReadings } from './recipe-steps.js';

/**
 * Sections 4.5, 8.1 and 8.3: the login writes of a key, 20 per fixed minute shared by the three
 * signup POST endpoints (polling is not counted; a refused request records nothing), and the 4 KB
 * body cap of each, counted with and without Content-Length.
 */

const BODY = 'login-write-body';
const limitWhere = { ...spec('login-writes-per-minute', 'login-writes-count'), pointer: `#/x-limits/${WRITES}` };

/**
 * A key with two approved logins, ready to spend writes on all three endpoints. Filing both
 * requests takes two writes of the current window.
 */
async function twoLogins(ctx: CaseContext) {
  const { account, key } = await signupSetup(ctx);
  const a = await fileSignup(ctx, key);
  const b = await fileSignup(ctx, key);
  for (const f of [a, b]) await decideSignup(ctx, account, f.requestId, 'approve');
  const [la, lb] = [await pollBody(ctx, key, a.requestId), await pollBody(ctx, key, b.requestId)];
  return { account, key, pollId: a.requestId, a: la.login.label as string, b: lb.login.label as string };
}

/**
 * Sends `count` writes that each succeed, spread over the three endpoints: pending filings while
 * the account may hold more (leaving one place, so that a later filing can only be refused for
 * the rate), then rotations of `label`, each followed by a poll that must not count.
 * `changesSpent` is what the account's credential-change budget has already paid.
 */
async function spendWrites(ctx: CaseContext, key: string, label: string, pollId: string, count: number, changesSpent: number): Promise<Exchange[]> {
  const filings = Math.min(ctx.limits.value(PENDING) - 1, count);
  const rotations = count - filings;
  if (changesSpent + rotations + 2 > ctx.limits.value(BUDGET)) {
    throw new NotRun(`the deployment's credential-change budget of ${ctx.limits.value(BUDGET)} is too small to fill a minute of login writes`);
  }
  const out: Exchange[] = [];
  for (let i = 0; i < count; i++) {
    const ex = i < filings ? (await fileSignup(ctx, key)).exchange : await ctx.call('rotateLoginPassword', { key, json: { label } });
    ctx.expectStatus(ex, i < filings ? 202 : 200, limitWhere);
    out.push(ex);
    const poll = await ctx.call('getSignupRequest', { key, params: { id: pollId } });
    ctx.expectStatus(poll, 200, { ...spec('poll-is-not-counted'), pointer: limitWhere.pointer });
  }
  ctx.step(`${filings} filings and ${rotations} rotations passed, each followed by a poll`);
  return out;
}

async function username(ctx: CaseContext, key: string, label: string, value: string): Promise<Exchange> {
  return ctx.call('setLoginUsername', { key, json: { label, username: value } });
}

/** The body-cap case of one operation: 4 KB read either way passes, more than 4 KB read either way is 413, chunked or not. */
function bodyCap(operationId: 'fileSignupRequest' | 'setLoginUsername' | 'rotateLoginPassword', accepted: number | string): Case {
  const filing = operationId === 'fileSignupRequest';
  return defineCase({
    id: `${operationId}/write-body-cap`,
    title: 'Reads a 4 KB body and refuses a longer one with 413',
    requirements: ['login-write-body-cap', 'http-chunked-request-body'],
    needs: filing ? { driver: true } : { keys: ['signupKey'] },
    costs: {},
    async run(ctx) {
      const key = filing ? (await signupSetup(ctx)).key : await ctx.key('signupKey');
      const body = () =>
        filing ? { website: ctx.site(), email: ctx.email() } : operationId === 'setLoginUsername' ? { label: `unknown${ctx.unique('l')}`, username: 'shopper' } : { label: `unknown${ctx.unique('l')}` };
      const bytes = ctx.limits.value(BODY);
      const cap = kilobyteReadings(bytes);
      const where = { ...spec('login-write-body-cap'), pointer: ctx.limits.pointer(BODY) };
      const read = (ex: Exchange) => (typeof accepted === 'number' ? ctx.expectStatus(ex, accepted, where) : ctx.expectError(ex, accepted, where));
      for (const chunked of [false, true]) {
        const framing = chunked ? 'chunked' : 'with Content-Length';
        read(await ctx.call(operationId, { key, body: paddedJson(body(), cap.within), chunked }));
        ctx.step(`a body of ${cap.within} bytes ${framing}: read`);
        ctx.expectError(await ctx.call(operationId, { key, body: paddedJson(body(), cap.over), chunked }), 'bad_request', { ...where, status: 413 });
        ctx.step(`a body of ${cap.over} bytes ${framing}: 413`);
        // 4 KB as 4,096 bytes is the reference's reading; 4,000 is the other.
        const exact = await ctx.call(operationId, { key, body: paddedJson(body(), bytes), chunked });
        ctx.check(exact.response.status !== 413, `a body of ${bytes} bytes read`, `${exact.response.status}`, reference('Section 4.5 caps a login write at 4 KB, which reads as 4,096 or 4,000 bytes; the reference reads 4,096.'), exact);
      }
    },
  });
}

export function loginWriteCases(): Case[] {
  return [
    defineCase({
      id: 'fileSignupRequest/login-writes-per-minute',
      title: 'Allows a key 20 login writes a minute across the three endpoints',
      requirements: ['login-writes-per-minute', 'login-writes-count', 'poll-is-not-counted'],
      needs: { driver: true },
      costs: { spends: "a key's login writes for a minute" },
      async run(ctx) {
        const writes = ctx.limits.value(WRITES);
        // Each attempt files on a new account: what one spent across a boundary counts in the new minute.
        await inOneFixedWindow(ctx, ctx.limits.windowMs(WRITES), async () => {
          const { key, pollId, a, b } = await twoLogins(ctx);
          const named = await username(ctx, key, a, `shopper.${ctx.unique('u')}`);
          ctx.expectStatus(named, 200, limitWhere);
          // Two filings and a username so far; two approvals and a username charged the budget.
          await spendWrites(ctx, key, a, pollId, writes - 3, 3);
          const refused = await username(ctx, key, b, `shopper.${ctx.unique('u')}`);
          ctx.expectError(refused, 'rate_limited', limitWhere);
          const refusedFiling = (await ctx.call('fileSignupRequest', { key, json: { website: ctx.site(), email: ctx.email() } }));
          ctx.expectError(refusedFiling, 'rate_limited', limitWhere);
          const refusedRotation = await ctx.call('rotateLoginPassword', { key, json: { label: b } });
          ctx.expectError(refusedRotation, 'rate_limited', limitWhere);
          ctx.step(`write ${writes + 1} on each endpoint: rate_limited`);
          ctx.expectStatus(await ctx.call('getSignupRequest', { key, params: { id: pollId } }), 200, spec('poll-is-not-counted'));
          ctx.step('a poll after the refusal: 200');
        });
      },
    }),
    defineCase({
      id: 'setLoginUsername/login-writes-window-resets',
      title: 'Resets the login writes at the next fixed minute, not sliding',
      requirements: ['login-writes-per-minute', 'windows-fixed', 'refused-records-nothing'],
      needs: { driver: true, manualClock: true },
      costs: { spends: "a key's login writes for a minute" },
      async run(ctx) {
        const writes = ctx.limits.value(WRITES);
        const windowMs = ctx.limits.windowMs(WRITES);
        const { key, pollId, a, b } = await twoLogins(ctx);
        const start = await ctx.clock.toNextWindow(windowMs / 1000);
        ctx.expectStatus(await username(ctx, key, a, `shopper.${ctx.unique('u')}`), 200, limitWhere);
        // The rest late in the window: a sliding window would still count them a second later.
        await ctx.clock.advance(windowMs - 1000);
        await spendWrites(ctx, key, a, pollId, writes - 1, 3);
        const refusedName = `refused.${ctx.unique('u')}`;
        ctx.expectError(await username(ctx, key, b, refusedName), 'rate_limited', limitWhere);
        await ctx.clock.advance(start + windowMs - 1 - (await ctx.clock.now()));
        ctx.expectError(await username(ctx, key, b, refusedName), 'rate_limited', limitWhere);
        ctx.step('1 ms before the next minute: still rate_limited');
        await ctx.clock.advance(1);
        const other = `shopper.${ctx.unique('u')}`;
        ctx.expectStatus(await username(ctx, key, b, other), 200, spec('windows-fixed', 'refused-records-nothing'));
        ctx.step('at the next minute: the username the refused writes carried was not recorded');
        ctx.expectStatus(await ctx.call('rotateLoginPassword', { key, json: { label: b } }), 200, spec('windows-fixed'));
        ctx.step('and a second write of the new minute passed');
      },
    }),
    bodyCap('fileSignupRequest', 202),
    bodyCap('setLoginUsername', 'not_found'),
    bodyCap('rotateLoginPassword', 'not_rotatable'),
  ];
}
