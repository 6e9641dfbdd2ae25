import fc from 'fast-check';
import type { Case } from '../case.js';
import { CaseContext, describeResponse, type RunEnvironment } from '../context.js';
import { codeOf, type Exchange } from '../exchange.js';
import { CaseFailure, RunnerError } from '../outcome.js';
import { describeBasis, reference } from '../basis.js';
import { notRunReason } from '../run.js';
import { hashString } from '../data.js';
import { matchesAny } from '../catalogue.js';
import { replayOf } from '../report/replay.js';
import { properties, type Generated, type Property } from './properties.js';
import { sequenceProperty, type SequenceProperty } from './sequences.js';

type AnyProperty = Property | SequenceProperty;
import { Stock } from './stock.js';

/**
 * Inputs generated from the document (`--generate N`): per operation, valid requests and requests
 * that break exactly one rule, and stateful walks through the signup workflow, all checked like the
 * catalogue's. fast-check generates them from the run's seed and shrinks a failure to a minimal
 * request, printed as a curl command with what reproduces it.
 */

export interface GenerationOptions {
  count: number;
  timeLimitMs: number;
  jobs: number;
  spend: boolean;
  /** `--only` and `--skip` patterns, applied to property ids as to case ids. */
  only: string[];
  skip: string[];
}

/** Rounds at most: each spreads what is left of the budget over the properties still passing. */
const ROUNDS = 6;

export interface PropertyOutcome {
  id: string;
  operationId: string;
  kind: string;
  state: 'passed' | 'failed' | 'error' | 'not-run';
  requests: number;
  /** Requests per rule broken (or valid shape tried). */
  byRule: Record<string, number>;
  reason?: string;
  failure?: { rule: string; failure: CaseFailure; exchange?: Exchange; seed: number; path?: string; shrinks: number };
}

export interface GenerationSummary {
  outcomes: PropertyOutcome[];
  requests: number;
  durationMs: number;
}

function asCase(p: Pick<Property, 'id' | 'needs' | 'costs'>): Case {
  return { id: p.id, title: p.id, requirements: [], sections: ['4', '7.1'], basis: FROM_DOCUMENT, level: 'must', needs: p.needs, costs: p.costs, run: async () => undefined };
}

/** What a generated request expects when no requirement names it: the answer the reference's document gives. */
const FROM_DOCUMENT = reference("The generator reads the expected answer from the reference's document (a schema rule and its code); no requirement names it.");

/** What the document says must come back, checked on top of the response checks every exchange gets. */
function expectAnswer(ctx: CaseContext, generated: Generated, ex: Exchange): void {
  const where = generated.basis ?? FROM_DOCUMENT;
  // A check, not a failure: judging by the specification, an expectation of the document alone is a deviation, and generation goes on.
  if (generated.expect === 'accepted') {
    ctx.check(ex.response.status < 300, `acceptance of a valid request (${generated.rule})`, () => describeResponse(ex), where, ex);
    return;
  }
  const { status, code } = generated.expect;
  ctx.check(ex.response.status === status && (code === undefined || codeOf(ex.response) === code), `${status}${code ? ` ${code}` : ''} for ${generated.rule}`, () => describeResponse(ex), where, ex);
}

async function runProperty(p: AnyProperty, env: RunEnvironment, seed: number, runs: number, deadline: number, budget: { left: number }, outcome: PropertyOutcome): Promise<void> {
  const ctx = new CaseContext(env, asCase(p), 1, { honourRetryAfter: false, pace: true });
  const stock = new Stock(ctx);
  const g = { ctx, stock, doc: env.doc };
  let error: RunnerError | undefined;
  let last: { generated: Generated; exchange?: Exchange } | undefined;
  const sequences = fc.asyncProperty(p.kind === 'sequence' ? p.arbitrary : fc.constant(async () => 0), async (walk) => {
    if (error || Date.now() > deadline || budget.left <= 0) return;
    const before = ctx.exchanges.length;
    try {
      await walk(g);
    } catch (e) {
      if (e instanceof CaseFailure) throw e;
      error = e instanceof RunnerError ? e : new RunnerError('runner', (e as Error).message);
    } finally {
      const sent = ctx.exchanges.length - before;
      outcome.requests += sent;
      budget.left -= sent;
      outcome.byRule['a walk'] = (outcome.byRule['a walk'] ?? 0) + 1;
    }
  });
  const requests = fc.asyncProperty(p.kind === 'sequence' ? fc.constant(async () => ({}) as Generated) : p.arbitrary, async (build) => {
    if (error || Date.now() > deadline || budget.left <= 0) return;
    let generated: Generated;
    try {
      generated = await build(g);
    } catch (e) {
      error = e instanceof RunnerError ? e : new RunnerError('runner', (e as Error).message);
      return;
    }
    budget.left--;
    outcome.requests++;
    outcome.byRule[generated.rule] = (outcome.byRule[generated.rule] ?? 0) + 1;
    last = { generated };
    try {
      if (generated.schemaRule && generated.call.body !== undefined) {
        const body = JSON.parse(String(generated.call.body));
        const schema = env.doc.requestBody(generated.operationId ?? p.operationId);
        if (schema && env.schemas.validate(`${schema.pointer}/schema`, body).length === 0) {
          throw new RunnerError('runner', `generated input for "${generated.rule}" does not break the document's schema: ${String(generated.call.body).slice(0, 200)}`);
        }
      }
      const ex = await ctx.call(generated.operationId ?? p.operationId, generated.call);
      last.exchange = ex;
      expectAnswer(ctx, generated, ex);
      if (generated.expect !== 'accepted' && ex.response.status < 300) return;
      if (p.kind !== 'sequence') await p.verify?.(g, generated, ex);
    } catch (e) {
      if (e instanceof CaseFailure) {
        // Whatever the request touched is no longer in a known state: nothing of it is used again.
        stock.retire();
        throw e;
      }
      error = e instanceof RunnerError ? e : new RunnerError('runner', (e as Error).message);
    }
  });
  const result = await fc.check(p.kind === 'sequence' ? sequences : requests, { numRuns: runs, seed, interruptAfterTimeLimit: Math.max(1, deadline - Date.now()), markInterruptAsFailure: false });
  await ctx.cleanup();
  if (result.failed && result.errorInstance instanceof CaseFailure) {
    if (p.kind === 'sequence') last = { generated: { rule: `the walk ${String(result.counterexample?.[0] ?? '')}`.slice(0, 400), call: {}, expect: 'accepted' } };
    outcome.state = 'failed';
    outcome.failure = {
      rule: last?.generated.rule ?? '',
      failure: result.errorInstance,
      exchange: result.errorInstance.exchange ?? last?.exchange,
      seed: result.seed,
      path: result.counterexamplePath ?? undefined,
      shrinks: result.numShrinks,
    };
  } else if (error) {
    outcome.state = 'error';
    outcome.reason = error.message;
  } else if (result.failed) {
    outcome.state = 'error';
    outcome.reason = String(result.errorInstance);
  }
}

export async function runGeneration(env: RunEnvironment, options: GenerationOptions): Promise<GenerationSummary> {
  const started = Date.now();
  const deadline = started + options.timeLimitMs;
  const probe = new CaseContext(env, asCase({ id: 'getTokenCatalog/generated', needs: { driver: true }, costs: {} }), 1);
  const all = [...properties({ ctx: probe, stock: new Stock(probe), doc: env.doc }, options.spend), sequenceProperty()].filter(
    (p) => (options.only.length === 0 || matchesAny(p.id, options.only)) && !matchesAny(p.id, options.skip),
  );
  const outcomes = new Map<string, PropertyOutcome>();
  const runnable: AnyProperty[] = [];
  for (const p of all) {
    const reason = notRunReason(asCase(p), env, options.spend);
    outcomes.set(p.id, { id: p.id, operationId: p.operationId, kind: p.kind, state: reason ? 'not-run' : 'passed', requests: 0, byRule: {}, ...(reason ? { reason } : {}) });
    if (!reason) runnable.push(p);
  }
  const budget = { left: options.count };
  for (let round = 0; round < ROUNDS && budget.left > 0 && Date.now() < deadline; round++) {
    const going = runnable.filter((p) => outcomes.get(p.id)!.state === 'passed');
    if (going.length === 0) break;
    const weight = going.reduce((s, p) => s + p.weight, 0);
    const share = budget.left;
    // A walk sends about a dozen requests; the other properties one each.
    const queue = going.map((p) => ({ p, runs: Math.max(1, Math.ceil((share * p.weight) / weight / (p.kind === 'sequence' ? 12 : 1))) }));
    let next = 0;
    const worker = async () => {
      while (next < queue.length) {
        const { p, runs } = queue[next++]!;
        await runProperty(p, env, (env.seed ^ hashString(`${p.id}#${round}`)) >>> 0, runs, deadline, budget, outcomes.get(p.id)!);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, queue.length)) }, worker));
  }
  const list = all.map((p) => outcomes.get(p.id)!);
  return { outcomes: list, requests: list.reduce((s, o) => s + o.requests, 0), durationMs: Date.now() - started };
}

/** The generation's part of the console report: per property, then each failure as a curl command. */
export function generationReport(summary: GenerationSummary, seed: number, count: number, mask: (t: string) => string): string {
  const lines = ['', `generated requests: ${summary.requests} in ${(summary.durationMs / 1000).toFixed(1)} s (${(summary.requests / Math.max(0.001, summary.durationMs / 1000)).toFixed(0)} a second)`];
  for (const o of summary.outcomes) {
    const state = { passed: 'PASS', failed: 'FAIL', error: 'ERROR', 'not-run': 'NOT RUN' }[o.state];
    lines.push(`${state.padEnd(8)} ${o.id} (${o.requests} requests${o.reason ? `; ${o.reason}` : ''})`);
  }
  for (const o of summary.outcomes.filter((x) => x.failure)) {
    const f = o.failure!;
    lines.push(
      '',
      `FAILED ${o.id}: ${f.rule}`,
      `Expected  ${f.failure.expected}`,
      `Received  ${f.failure.received}`,
      `Written   ${[f.failure.where.pointer, describeBasis(f.failure.where)].filter(Boolean).join(' · ')}`,
      ...(f.exchange ? [`Replay    ${replayOf(f.exchange)}`] : []),
      `Shrunk    ${f.shrinks} times; the same inputs again: --generate ${count} --seed ${seed} (fast-check seed ${f.seed}${f.path ? `, path ${f.path}` : ''})`,
    );
  }
  return mask(`${lines.join('\n')}\n`);
}
