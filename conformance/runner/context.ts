import type { LookupSlot, PlanName, RecipeRequest, RecipeSample } from '../drivers/driver.js';
import type { CaseInfo, KeyRole } from './needs.js';
import { Account, DriverCalls } from './account.js';
import { NotRun, RunnerError } from './outcome.js';
import { sleep } from './throttle.js';
import { CaseJudgement } from './case-judgement.js';
import type { RunEnvironment } from './case-calls.js';

export type { RunEnvironment, CallOptions } from './case-calls.js';
export { PRECONDITION_REFUSED, describeResponse, jsonEqual } from './case-judgement.js';

const SETTLE_MS = 30_000;

/**
 * What a case works with: its checked calls and its expectations (case-calls.ts,
 * case-judgement.ts), and what it provisions through the driver: accounts and keys, a
 * maintainer's decision, the deployment's own recipes, the deployment's clock, and waiting for
 * what the specification lets happen after an answer.
 */
export class CaseContext extends CaseJudgement {
  private readonly cleanups: (() => Promise<void>)[] = [];
  private readonly keyCache = new Map<KeyRole, string>();
  private home?: Account;
  private readonly calls?: DriverCalls;

  constructor(env: RunEnvironment, spec: CaseInfo, attempt: number, manners?: { pace: boolean; honourRetryAfter: boolean }) {
    super(env, spec, attempt, manners);
    if (env.driver) this.calls = new DriverCalls(env.driver, spec.needs.driver === true || !spec.needs.driver ? 'all' : new Set(spec.needs.driver));
  }

  /** The longest this case waited for something to show, so that an absence is judged after as long. */
  private settledMs = 0;

  /**
   * Reads `probe` until `done` holds, backing off from a quarter of a second to two, for at most the
   * run's settle time; returns the last value read, done or not. For what the specification lets
   * happen after the answer (section 3: screening runs after the 202; section 4.4: poll while
   * pending), which an agent polls for.
   */
  async eventually<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const bound = this.env.settleMs ?? SETTLE_MS;
    const started = Date.now();
    let wait = 250;
    let value = await probe();
    while (!done(value) && Date.now() - started < bound) {
      await sleep(wait);
      wait = Math.min(wait * 2, 2000);
      value = await probe();
    }
    const took = Date.now() - started;
    if (done(value)) {
      this.settledMs = Math.max(this.settledMs, took);
      if (took > 0) this.step(`${what}: seen after ${(took / 1000).toFixed(1)} s`);
    } else this.step(`${what}: not seen within ${bound / 1000} s`);
    return value;
  }

  /** Waits twice as long as anything this case polled for took to show: then an absence means absent. */
  async settle(): Promise<void> {
    await sleep(Math.min(this.settledMs * 2 + 250, this.env.settleMs ?? SETTLE_MS));
  }

  // Accounts, keys, clock --------------------------------------------------------------------------

  get hasDriver(): boolean {
    return this.calls !== undefined;
  }

  private driverCalls(): DriverCalls {
    if (!this.calls) throw new NotRun('needs the account-holder driver');
    return this.calls;
  }

  /** A new account through the driver, deleted when the case ends (when the driver can). */
  async account(options: { plan?: PlanName } = {}): Promise<Account> {
    if (!this.spec.needs.driver) throw new RunnerError('runner', `${this.spec.id} opens an account but does not declare needs.driver`);
    return this.openAccount(options);
  }

  private async openAccount(options: { plan?: PlanName } = {}): Promise<Account> {
    const calls = this.driverCalls();
    const stop = this.env.stop;
    if (stop?.requested) throw stop.interrupted('no account is opened after it');
    const plan = options.plan ?? 'Free';
    const { accountId } = await calls.run('openAccount', { plan, name: `conformance ${this.spec.id}` });
    const account = new Account(accountId, plan, calls, this.random, this.env.canaries, this.env.secrets);
    // Opened while the stop came: the case's cleanup may already have run, so it goes at once.
    if (stop?.requested && calls.driver.deleteAccount) {
      await account.delete().catch(() => undefined);
      throw stop.interrupted('the account opened as it came was deleted');
    }
    if (calls.driver.deleteAccount) this.cleanups.push(() => account.delete());
    return account;
  }

  /** A key for a role: issued through the driver on the case's own account, else the one given to the runner. */
  async key(role: KeyRole): Promise<string> {
    const cached = this.keyCache.get(role);
    if (cached) return cached;
    if (!this.spec.needs.keys?.includes(role) && !this.spec.needs.driver) {
      throw new RunnerError('runner', `${this.spec.id} uses the ${role} key but declares neither it nor needs.driver`);
    }
    let key: string;
    if (this.calls) {
      if (role === 'otherAccountKey') key = (await (await this.openAccount()).issueKey()).key;
      else {
        this.home ??= await this.openAccount();
        const options = role === 'signupKey' ? { signup: true } : role === 'scopedKey' ? { scope: [] as string[] } : {};
        key = (await this.home.issueKey(options)).key;
      }
    } else {
      const given = this.env.keys[role];
      if (!given) throw new NotRun(`needs ${KEY_OPTION[role]} or the account-holder driver`);
      key = given;
    }
    this.keyCache.set(role, key);
    return key;
  }

  /** A registry maintainer's decision on a submission, through the driver. */
  async maintainer(submissionId: string, decision: 'merge' | 'verify' | 'reject'): Promise<void> {
    this.step(`a maintainer's decision on ${submissionId}: ${decision}`);
    await this.driverCalls().run('decideRecipeSubmission', submissionId, decision);
  }

  /** A recipe in the deployment's own format, when its driver writes one (section 2.2 does not show the body). */
  async sampleRecipe(request: RecipeRequest): Promise<RecipeSample | undefined> {
    if (typeof this.env.driver?.sampleRecipe !== 'function' || !this.calls) return undefined;
    const sample = await this.calls.run('sampleRecipe', request);
    this.step(`the driver wrote a ${request.kind} recipe in the deployment's format: ${sample.key}`);
    return sample;
  }

  /** Pages the deployment's registry serves, by lookup slot, when its driver names them. */
  async registryPages(): Promise<Partial<Record<LookupSlot, string>> | undefined> {
    if (typeof this.env.driver?.registryPages !== 'function' || !this.calls) return undefined;
    return this.calls.run('registryPages');
  }

  readonly clock = {
    now: async (): Promise<number> => (await this.driverCalls().run('clock')).now,
    advance: async (ms: number): Promise<number> => {
      if (!this.spec.needs.manualClock) throw new RunnerError('runner', `${this.spec.id} moves the clock but does not declare needs.manualClock`);
      if (!this.env.manualClock) throw new NotRun('needs a manual clock');
      this.step(`moved the deployment's clock ${ms} ms on`);
      return (await this.driverCalls().run('advanceClock', ms)).now;
    },
    /** Moves the clock to the start of the next window of `seconds` (windows aligned to the epoch), plus `offsetMs`. */
    toNextWindow: async (seconds: number, offsetMs = 0): Promise<number> => {
      const now = await this.clock.now();
      const next = (Math.floor(now / (seconds * 1000)) + 1) * seconds * 1000 + offsetMs;
      return this.clock.advance(next - now);
    },
  };

  async cleanup(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // Cleaning up is a courtesy to the deployment; the verdict is already known.
      }
    }
  }
}

export const KEY_OPTION: Record<KeyRole, string> = {
  key: '--key',
  signupKey: '--signup-key',
  otherAccountKey: '--other-account-key',
  scopedKey: '--scoped-key',
};

