import type { Case } from './case.js';
import { spendsOrCreates } from './case.js';
import { CaseContext, KEY_OPTION, type RunEnvironment } from './context.js';
import { CaseFailure, NotRun, ReferenceDeparture, RunnerError, sameDeparture, type CaseResult, type Deviation, type NotRunKind } from './outcome.js';
import type { Exchange } from './exchange.js';
import type { Stop } from './interruption.js';
import { sameBasis } from './basis.js';
import type { RequirementId } from '../requirements/index.js';
import { caseScope } from './har.js';

export interface RunOptions {
  jobs: number;
  repeat: number;
  /** Cases that spend limits or create data the runner cannot remove may run. */
  spend: boolean;
  caseTimeoutMs: number;
  /** Stop starting cases once this many have failed or errored (`--max-failures`). */
  maxFailures?: number;
  /** The known-deviations file's reason for a case's result, if it lists the case or its failure's cause (`--expect-fail`). */
  knownReason?: (result: CaseResult) => string | undefined;
  onResult?: (result: CaseResult, detail: CaseDetail) => void;
  /** A stop a signal asked for: no case starts after it, and those under way get its grace, then end as interrupted. */
  stop?: Stop;
}

/** What a report needs beyond the verdict: the steps taken and the last exchange. */
export interface CaseDetail {
  steps: string[];
  lastExchange?: Exchange;
}

/** Why a case cannot run: the words a report prints, its kind, and its cause in a few words to count by. */
export interface NotRunWhy {
  kind: NotRunKind;
  reason: string;
  label: string;
}

function capability(reason: string): NotRunWhy {
  return { kind: 'capability', reason, label: reason };
}

/**
 * Why a case cannot run in this run, or undefined when it can. The user's choice (no --spend)
 * comes first: such a case would not run whatever else the run had, so leaving it out is the
 * user's doing, never a gap that makes the run incomplete.
 */
export function whyNotRun(c: Case, env: RunEnvironment, spend: boolean): NotRunWhy | undefined {
  if (!spend && spendsOrCreates(c)) {
    const label = 'no --spend';
    if (c.costs.spends) return { kind: 'choice', reason: `spends ${c.costs.spends}; run with --spend`, label };
    if (c.costs.createsData) return { kind: 'choice', reason: `creates data the runner cannot remove (${c.costs.createsData}); run with --spend`, label };
    return { kind: 'choice', reason: `waits ${c.costs.waits}; run with --spend`, label };
  }
  if (c.needs.driver && !env.driver) return capability('needs the account-holder driver');
  if (Array.isArray(c.needs.driver) && env.driver) {
    const missing = c.needs.driver.filter((m) => typeof env.driver![m] !== 'function');
    if (missing.length > 0) return capability(`the driver cannot ${missing.join(', ')}`);
  }
  if (c.needs.manualClock && !env.manualClock) return capability('needs a manual clock');
  for (const role of c.needs.keys ?? []) {
    if (!env.driver && !env.keys[role]) return capability(`needs ${KEY_OPTION[role]} or the account-holder driver`);
  }
  return undefined;
}

/** Why a case cannot run in this run, in words, or undefined when it can. */
export function notRunReason(c: Case, env: RunEnvironment, spend: boolean): string | undefined {
  return whyNotRun(c, env, spend)?.reason;
}

function notRunResult(id: string, why: NotRunWhy): CaseResult {
  return {
    id,
    state: 'not-run',
    reason: why.reason,
    notRun: { kind: why.kind, label: why.label },
    attempts: { passed: 0, total: 0 },
    durationMs: 0,
    requests: 0,
    observed: [],
    deviations: [],
    requirements: { held: [], broken: [] },
  };
}

/** The result fails the run: a failure not listed as known, a listed case that passed, or an error. */
function counts(r: CaseResult): boolean {
  return r.state === 'error' || (r.state === 'failed' && !r.known) || (r.state === 'passed' && r.known !== undefined);
}

/**
 * Runs cases `jobs` at a time, each on accounts of its own. A case that moves the deployment's
 * clock runs alone, after the others, since moving time would end the windows of every case
 * running beside it.
 */
export async function runCases(cases: Case[], env: RunEnvironment, options: RunOptions): Promise<CaseResult[]> {
  const results = new Map<string, CaseResult>();
  const runnable: Case[] = [];
  for (const c of cases) {
    const why = whyNotRun(c, env, options.spend);
    if (why) {
      const result = notRunResult(c.id, why);
      results.set(c.id, result);
      options.onResult?.(result, { steps: [] });
    } else runnable.push(c);
  }
  const shared = runnable.filter((c) => !c.needs.manualClock);
  const alone = runnable.filter((c) => c.needs.manualClock);
  let failing = 0;
  const limited = () => options.maxFailures !== undefined && failing >= options.maxFailures;
  const stopped = () => limited() || options.stop?.requested === true;
  const finish = (r: { result: CaseResult; detail: CaseDetail }) => {
    const known = options.knownReason?.(r.result);
    if (known && (r.result.state === 'failed' || r.result.state === 'passed')) r.result.known = known;
    if (counts(r.result)) failing++;
    results.set(r.result.id, r.result);
    options.onResult?.(r.result, r.detail);
  };
  let next = 0;
  const worker = async () => {
    while (next < shared.length && !stopped()) finish(await runCase(shared[next++]!, env, options));
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, shared.length)) }, worker));
  for (const c of alone) {
    if (stopped()) break;
    finish(await runCase(c, env, options));
  }
  // Cases already under way when the limit was reached finish and count; the rest never start.
  const signal = options.stop?.signal;
  const why: NotRunWhy = signal
    ? { kind: 'stopped', reason: `not started: the run was interrupted by ${signal}`, label: `interrupted by ${signal}` }
    : { kind: 'stopped', reason: `stopped after ${options.maxFailures} failed or errored cases (--max-failures ${options.maxFailures})`, label: `--max-failures ${options.maxFailures}` };
  for (const c of cases) {
    if (results.has(c.id)) continue;
    const result = notRunResult(c.id, why);
    results.set(c.id, result);
    options.onResult?.(result, { steps: [] });
  }
  return cases.map((c) => results.get(c.id)!);
}

async function runCase(c: Case, env: RunEnvironment, options: RunOptions): Promise<{ result: CaseResult; detail: CaseDetail }> {
  const started = performance.now();
  const observed = new Set<string>();
  const held = new Set<RequirementId>();
  const broken = new Set<RequirementId>();
  let requests = 0;
  let passed = 0;
  let failure: CaseFailure | undefined;
  let error: RunnerError | undefined;
  let notRun: NotRun | undefined;
  let departed = false;
  let failedAttempt = 0;
  let detail: CaseDetail = { steps: [] };
  const deviations: Deviation[] = [];
  for (let attempt = 1; attempt <= options.repeat; attempt++) {
    const ctx = new CaseContext(env, c, attempt);
    let outcome = await caseScope.run(c.id, () => attemptCase(c, ctx, options.caseTimeoutMs, options.stop));
    await caseScope.run(c.id, () => ctx.cleanup());
    requests += ctx.exchanges.length;
    // One record of each departure, however many attempts met it, with the answers it was seen in.
    for (const d of ctx.deviations) {
      const known = deviations.find((k) => sameDeparture(k, d));
      if (known) known.answers = (known.answers ?? 1) + (d.answers ?? 1);
      else deviations.push({ ...d });
    }
    for (const t of ctx.observed()) observed.add(t);
    for (const id of ctx.tried.held) held.add(id);
    for (const id of ctx.tried.broken) broken.add(id);
    if (outcome === 'departed') {
      departed = true;
      outcome = 'passed';
    }
    // A pass is earned: a case that proves requirements passes only if one of them was tried.
    if (outcome === 'passed' && c.requirements.length > 0 && !c.requirements.some((id) => ctx.tried.held.has(id))) {
      outcome = new NotRun(`not tried: none of its requirements (${c.requirements.join(', ')}) was checked by an assertion that ran`, 'capability', NOTHING_TRIED);
    }
    if (outcome === 'passed') passed++;
    else if (outcome instanceof CaseFailure) {
      failure ??= outcome;
      failedAttempt ||= attempt;
    } else if (outcome instanceof NotRun) notRun ??= outcome;
    else error ??= outcome;
    if (outcome !== 'passed' || attempt === 1) detail = { steps: ctx.steps, lastExchange: ctx.exchanges.at(-1) };
    if (outcome instanceof NotRun || options.stop?.requested) break;
  }
  const total = options.repeat;
  const base = {
    id: c.id,
    attempts: { passed, total },
    durationMs: performance.now() - started,
    requests,
    observed: [...observed],
    deviations: failure ? notTheFailure(deviations, failure) : deviations,
    requirements: { held: [...held].filter((id) => !broken.has(id)), broken: [...broken] },
  };
  let result: CaseResult;
  if (failure) {
    result = { ...base, state: 'failed', failure, reason: total > 1 ? `failed in run ${failedAttempt} of ${total} (passed ${passed})` : undefined };
  } else if (error) result = { ...base, state: 'error', error, reason: error.message };
  else if (notRun) result = { ...base, state: 'not-run', reason: notRun.message, notRun: { kind: notRun.kind, label: notRun.label } };
  else if (provesAChoice(c, env)) {
    // Judging by the specification, a reference choice is no rule: matched or departed, never passed.
    const own = departed || deviations.some((d) => sameBasis(d.where, c.basis));
    result = { ...base, state: 'reference', reference: own ? 'departed' : 'matched' };
  } else result = { ...base, state: 'passed' };
  return { result, detail };
}

/** The case proves only a choice of the reference, and the run judges by the specification. */
function provesAChoice(c: Case, env: RunEnvironment): boolean {
  return env.judgement === 'spec' && c.basis?.kind === 'reference' && c.requirements.length === 0;
}

/** The cause the summary counts a case under when it ran but none of its requirements was checked. */
export const NOTHING_TRIED = 'none of its requirements was tried';

/**
 * A failure is reported once, as a failure: the departures of the answer that failed, and the
 * failure itself seen as a departure elsewhere in the case, are not listed again as deviations.
 */
function notTheFailure(deviations: Deviation[], failure: CaseFailure): Deviation[] {
  return deviations.filter((d) => !sameDeparture(d, failure) && (failure.exchange === undefined || d.exchange !== failure.exchange));
}

async function attemptCase(c: Case, ctx: CaseContext, timeoutMs: number, stop?: Stop): Promise<'passed' | 'departed' | CaseFailure | RunnerError | NotRun> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RunnerError('timeout', `the case did not finish within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  const expiry = stop?.expiry();
  try {
    await Promise.race([c.run(ctx), timeout, ...(expiry ? [expiry.promise] : [])]);
    return 'passed';
  } catch (e) {
    if (e instanceof ReferenceDeparture) {
      ctx.deviate(e.deviation);
      return 'departed';
    }
    if (e instanceof CaseFailure || e instanceof RunnerError || e instanceof NotRun) return e;
    return new RunnerError('runner', `the case broke: ${(e as Error).stack ?? String(e)}`);
  } finally {
    clearTimeout(timer);
    expiry?.cancel();
  }
}
