import { CaseCalls } from './case-calls.js';
import { codeOf, type Exchange } from './exchange.js';
import { CaseFailure, NotRun, ReferenceDeparture, RunnerError, StatusMismatch, type Deviation } from './outcome.js';
import { at, binds, requirementsOf, sameBasis, type Basis, type Rule } from './basis.js';
import { requirement, type RequirementId } from '../requirements/index.js';

/**
 * The expectations of a case. Every one names its rule: a requirement of the catalogue, which
 * fails the case when it does not hold, or a choice of the reference server, which judging by the
 * specification is a deviation only. Each records the requirements it tried.
 */
export class CaseJudgement extends CaseCalls {
  /** The range the catalogue accepts for a figure the specification gives as "about". */
  requirementRange(id: RequirementId): { min: number; max: number } {
    const range = requirement(id).range;
    if (!range) throw new RunnerError('runner', `requirement ${id} records no range`);
    return range;
  }

  private note(rule: Rule, held: boolean): void {
    for (const id of requirementsOf(rule)) (held ? this.tried.held : this.tried.broken).add(id);
  }

  /** The rule, with the document's pointer to the response it expects when it names none. */
  private located(ex: Exchange | undefined, status: number | undefined, rule: Rule): Rule {
    if (rule.pointer !== undefined || !ex?.operationId || status === undefined) return rule;
    return at(rule, this.doc.response(ex.operationId, status)?.pointer);
  }

  /** Whether a rule fails the case in this run: judging by the specification, a reference choice does not. */
  private binding(rule: Rule): boolean {
    return this.env.judgement === 'reference' || binds(rule);
  }

  /** Ends the case: failed, or, for a reference choice judged by the specification, a departure. */
  fail(expected: string, received: string, rule: Rule, ex?: Exchange): never {
    if (!this.binding(rule)) this.depart({ expected, received, where: rule, exchange: ex });
    this.note(rule, false);
    throw new CaseFailure(expected, received, rule, ex);
  }

  /**
   * The deployment chose otherwise than the reference where the case cannot go on. A case that
   * proves this very choice ends there, its departure recorded; a case that only builds on it never
   * tried its own rule, so it ends `not run`, with the deviation and what would let it run.
   */
  private depart(d: Deviation): never {
    // A case that proves a reference choice departs from the reference wherever the deployment chose otherwise.
    if (sameBasis(d.where, this.spec.basis) || this.spec.basis?.kind === 'reference') throw new ReferenceDeparture(d);
    this.deviate(d);
    const remedy = d.where.kind === 'reference' ? d.where.remedy : undefined;
    throw precondition(`it builds on a choice of the reference that the deployment does not share (expected ${d.expected}; received ${d.received})`, remedy ?? 'a deployment that shares this choice');
  }

  /**
   * What the case's rule depends on (a contribution accepted, a link issued): when the deployment
   * refused it, the case ends `not run` with the reason and `remedy`, what would let it run; never
   * `passed`. Judging by the reference, `binding` says the reference server must not refuse it.
   */
  precondition(condition: unknown, what: string, received: string | (() => string), remedy: string, ex?: Exchange, binding?: Rule): void {
    if (condition) return;
    const text = typeof received === 'function' ? received() : received;
    if (binding && this.env.judgement === 'reference') throw new CaseFailure(what, text, binding, ex);
    throw precondition(`the deployment refused what its rule depends on: ${what}; received ${text}`, remedy);
  }

  /**
   * A refusal: any 4xx holds `rule` (a used link must refuse, say); its exact status and code are
   * `exact`'s, a deviation when the deployment made another choice.
   */
  expectRefused(ex: Exchange, code: string, exact: Basis, rule: Rule & { status?: number }): void {
    const status = rule.status ?? (ex.operationId ? this.doc.statusOfCode(ex.operationId, code) : undefined);
    if (ex.response.status < 400 || ex.response.status > 499) this.mismatch('a refusal (a 4xx status)', ex, this.located(ex, status, rule));
    this.note(rule, true);
    this.check(ex.response.status === status && codeOf(ex.response) === code, `${status} ${code}`, () => describeResponse(ex), at(exact, rule.pointer), ex);
  }

  /** Fails the case when `condition` does not hold; for a reference choice judged by the specification, records the deviation and goes on. */
  check(condition: unknown, expected: string, received: string | (() => string), rule: Rule, ex?: Exchange): void {
    if (condition) {
      this.note(rule, true);
      return;
    }
    const text = typeof received === 'function' ? received() : received;
    if (!this.binding(rule)) return this.deviate({ expected, received: text, where: rule, exchange: ex });
    this.note(rule, false);
    throw new CaseFailure(expected, text, rule, ex);
  }

  /** The response has exactly this status (an error's code is `expectError`'s). */
  expectStatus(ex: Exchange, status: number, rule: Rule): void {
    if (ex.response.status === status) {
      this.note(rule, true);
      return;
    }
    this.mismatch(`status ${status}`, ex, this.located(ex, status, rule));
  }

  /**
   * A success, where `rule` gives no exact status (the links' answers are not shown): any 2xx holds
   * it; `exact`, the reference's status, is a check of the reference's basis.
   */
  expectSuccess(ex: Exchange, rule: Rule, exact?: { status: number; basis: Basis }): void {
    const status = ex.response.status;
    if (status < 200 || status > 299) this.mismatch(`a success (a 2xx status)${exact ? `, ${exact.status} by the reference` : ''}`, ex, this.located(ex, exact?.status, rule));
    this.note(rule, true);
    if (exact) this.check(status === exact.status, `status ${exact.status}`, () => describeResponse(ex), exact.basis, ex);
  }

  /** The response is the error `code`, with the status the document gives it on this operation. */
  expectError(ex: Exchange, code: string, rule: Rule & { status?: number }): void {
    const status = rule.status ?? (ex.operationId ? this.doc.statusOfCode(ex.operationId, code) : undefined);
    if (status === undefined) throw new RunnerError('runner', `${ex.operationId} documents no status with code ${code}`);
    if (ex.response.status !== status || codeOf(ex.response) !== code) this.mismatch(`${status} ${code}`, ex, this.located(ex, status, rule));
    this.note(rule, true);
  }

  /** What follows an unexpected status depends on it, so even a reference choice ends the case here. */
  private mismatch(expected: string, ex: Exchange, rule: Rule): never {
    if (!this.binding(rule)) this.depart({ expected, received: describeResponse(ex), where: rule, exchange: ex });
    this.note(rule, false);
    throw new StatusMismatch(expected, describeResponse(ex), rule, ex);
  }

  /** Deep equality of two JSON values, with both shown when they differ (a check: see `check`). */
  expectEqual(actual: unknown, expected: unknown, what: string, rule: Rule, ex?: Exchange): void {
    this.check(jsonEqual(actual, expected), `${what} ${JSON.stringify(expected)}`, () => `${JSON.stringify(actual)}`, rule, ex);
  }
}

/** A case whose rule was never tried, counted under one cause. */
function precondition(reason: string, remedy: string): NotRun {
  return new NotRun(`not tried: ${reason}. To run it: ${remedy}`, 'capability', PRECONDITION_REFUSED);
}

/** The cause the summary counts these cases under, apart from the capabilities the run lacked. */
export const PRECONDITION_REFUSED = 'the deployment refused a precondition';

export function describeResponse(ex: Exchange): string {
  const code = codeOf(ex.response);
  return `${ex.response.status}${code ? ` ${code}` : ''}`;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
