import fc from 'fast-check';
import type { Case } from '../case.js';
import { CaseContext, describeResponse, type RunEnvironment } from '../context.js';
import { codeOf, type Exchange } from '../exchange.js';
import { CaseFailure, RunnerError } from '../outcome.js';
import { reference } from '../basis.js';
import { whyNotRun } from '../run.js';
import { hashString } from '../data.js';
import { matchesAny } from '../catalogue.js';
import { properties, type Generated, type Property } from './properties.js';
import { sequenceProperty, type SequenceProperty } from './sequences.js';

type AnyProperty = Property | SequenceProperty;
import { Stock } from './stock.js';
import type { GenerationSummary, PropertyOutcome } from './summary.js';
import type { Stop } from '../interruption.js';

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
  /** A stop a signal asked for: no generated request is sent after it, and the properties under way get its grace. */
  stop?: Stop;
  /** Progress, a line at a time: a failure as it is found, and the counts at a steady, low rate. */
  progress?: (line: string) => void;
}

/** Seconds between two lines of progress without a terminal: a steady and low rate for a CI log. */
export const PROGRESS_EVERY_S = 15;

/** Rounds at most: each spreads what is left of the budget over the properties still passing. */
const ROUNDS = 6;

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

async function runProperty(p: AnyProperty, env: RunEnvironment, seed: number, runs: number, deadline: number, budget: { left: number }, outcome: PropertyOutcome, stop?: Stop): Promise<void> {
  const started = performance.now();
  const ctx = new CaseContext(env, asCase(p), 1, { honourRetryAfter: false, pace: true });
  // After a stop, every run left returns at once: fast-check ends its runs (and a shrink) without a request.
  const over = () => error !== undefined || Date.now() > deadline || budget.left <= 0 || stop?.requested === true;
  const stock = new Stock(ctx);
  const g = { ctx, stock, doc: env.doc };
  let error: RunnerError | undefined;
  let last: { generated: Generated; exchange?: Exchange } | undefined;
  const sequences = fc.asyncProperty(p.kind === 'sequence' ? p.arbitrary : fc.constant(async () => 0), async (walk) => {
    if (over()) return;
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
    if (over()) return;
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
  const expiry = stop?.expiry();
  let result: fc.RunDetails<[unknown]>;
  try {
    const checked = fc.check(p.kind === 'sequence' ? sequences : requests, { numRuns: runs, seed, interruptAfterTimeLimit: Math.max(1, deadline - Date.now()), markInterruptAsFailure: false });
    result = (await Promise.race([checked, ...(expiry ? [expiry.promise] : [])])) as fc.RunDetails<[unknown]>;
  } catch (e) {
    // The stop's grace ran out with a request under way: the property ends as interrupted, its accounts deleted.
    outcome.state = 'error';
    outcome.reason = (e as Error).message;
    outcome.errorKind = e instanceof RunnerError ? e.kind : 'runner';
    return;
  } finally {
    expiry?.cancel();
    await ctx.cleanup();
    outcome.durationMs += performance.now() - started;
  }
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
    outcome.errorKind = error.kind;
  } else if (result.failed) {
    outcome.state = 'error';
    outcome.reason = String(result.errorInstance);
  }
}

/** The properties `--only` and `--skip` select, in the order they run and are reported. */
function selectedProperties(env: RunEnvironment, options: Pick<GenerationOptions, 'spend' | 'only' | 'skip'>): AnyProperty[] {
  const probe = new CaseContext(env, asCase({ id: 'getTokenCatalog/generated', needs: { driver: true }, costs: {} }), 1);
  return [...properties({ ctx: probe, stock: new Stock(probe), doc: env.doc }, options.spend), sequenceProperty()].filter(
    (p) => (options.only.length === 0 || matchesAny(p.id, options.only)) && !matchesAny(p.id, options.skip),
  );
}

function stoppedBy(signal: string): Pick<PropertyOutcome, 'reason' | 'notRun'> {
  return { reason: `not started: the run was interrupted by ${signal}`, notRun: { kind: 'stopped', label: `interrupted by ${signal}` } };
}

/** The generation of a run a signal stopped before it began: every property selected, not run. */
export function generationNotStarted(env: RunEnvironment, options: Pick<GenerationOptions, 'spend' | 'only' | 'skip'>, signal: string): GenerationSummary {
  const outcomes = selectedProperties(env, options).map(
    (p): PropertyOutcome => ({ id: p.id, operationId: p.operationId, kind: p.kind, state: 'not-run', ...stoppedBy(signal), requests: 0, byRule: {}, durationMs: 0 }),
  );
  return { outcomes, requests: 0, durationMs: 0 };
}

/** A line of counts every PROGRESS_EVERY_S seconds, and one for each property as it fails. */
function progressOf(options: GenerationOptions, outcomes: Map<string, PropertyOutcome>, started: number): { failed(o: PropertyOutcome): void; stop(): void } {
  const say = options.progress;
  if (!say) return { failed: () => undefined, stop: () => undefined };
  const line = () => {
    const list = [...outcomes.values()];
    const sent = list.reduce((n, o) => n + o.requests, 0);
    const failed = list.filter((o) => o.state === 'failed').length;
    return `generating: ${sent} of ${options.count} requests in ${((Date.now() - started) / 1000).toFixed(0)} s; ${failed} ${failed === 1 ? 'property' : 'properties'} failed so far`;
  };
  const timer = setInterval(() => say(line()), PROGRESS_EVERY_S * 1000);
  timer.unref();
  return {
    failed: (o) => say(`generating: FAIL ${o.id}: ${o.failure?.rule ?? o.reason ?? ''} (shrinking done; details at the end)`),
    stop: () => clearInterval(timer),
  };
}

export async function runGeneration(env: RunEnvironment, options: GenerationOptions): Promise<GenerationSummary> {
  const started = Date.now();
  const deadline = started + options.timeLimitMs;
  const all = selectedProperties(env, options);
  const outcomes = new Map<string, PropertyOutcome>();
  const runnable: AnyProperty[] = [];
  for (const p of all) {
    const why = whyNotRun(asCase(p), env, options.spend);
    outcomes.set(p.id, { id: p.id, operationId: p.operationId, kind: p.kind, state: why ? 'not-run' : 'passed', requests: 0, byRule: {}, durationMs: 0, ...(why ? { reason: why.reason, notRun: { kind: why.kind, label: why.label } } : {}) });
    if (!why) runnable.push(p);
  }
  const progress = progressOf(options, outcomes, started);
  options.progress?.(`generating ${options.count} requests for ${runnable.length} ${runnable.length === 1 ? 'property' : 'properties'} (at most ${options.timeLimitMs / 1000} s); a line every ${PROGRESS_EVERY_S} s`);
  const budget = { left: options.count };
  const stopped = () => options.stop?.requested === true;
  for (let round = 0; round < ROUNDS && budget.left > 0 && Date.now() < deadline && !stopped(); round++) {
    const going = runnable.filter((p) => outcomes.get(p.id)!.state === 'passed');
    if (going.length === 0) break;
    const weight = going.reduce((s, p) => s + p.weight, 0);
    const share = budget.left;
    // A walk sends about a dozen requests; the other properties one each.
    const queue = going.map((p) => ({ p, runs: Math.max(1, Math.ceil((share * p.weight) / weight / (p.kind === 'sequence' ? 12 : 1))) }));
    let next = 0;
    const worker = async () => {
      while (next < queue.length && !stopped()) {
        const { p, runs } = queue[next++]!;
        const outcome = outcomes.get(p.id)!;
        await runProperty(p, env, (env.seed ^ hashString(`${p.id}#${round}`)) >>> 0, runs, deadline, budget, outcome, options.stop);
        if (outcome.state === 'failed') progress.failed(outcome);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, queue.length)) }, worker));
  }
  progress.stop();
  const signal = options.stop?.signal;
  if (signal) {
    // What no request reached is not run; what had passed so far ran part of its share, and says so.
    for (const o of outcomes.values()) {
      if (o.state !== 'passed') continue;
      if (o.requests === 0) Object.assign(o, { state: 'not-run', ...stoppedBy(signal) });
      else o.reason = `passed its ${o.requests} requests before the run was interrupted by ${signal}`;
    }
  }
  const list = all.map((p) => outcomes.get(p.id)!);
  return { outcomes: list, requests: list.reduce((s, o) => s + o.requests, 0), durationMs: Date.now() - started };
}

/** The generation's line in the console summary; its properties are printed and counted as cases. */
export function generationReport(summary: GenerationSummary, seed: number): string {
  const rate = (summary.requests / Math.max(0.001, summary.durationMs / 1000)).toFixed(0);
  return `generated requests: ${summary.requests} in ${(summary.durationMs / 1000).toFixed(1)} s (${rate} a second); the same inputs again with --seed ${seed}\n`;
}
