import { body } from '../by-meaning.js';
import type { Account } from '../account.js';
import type { CaseContext } from '../context.js';
import { RunnerError } from '../outcome.js';

/**
 * Accounts, keys and logins for generated requests, each used within every limit the document
 * states, so that a refusal is never the runner's own doing: a key sends at most its login writes
 * and catalog reads of one window, an account holds at most its pending requests and spends at
 * most part of its credential-change budget. When one is spent (or a request on it found the
 * deployment at fault), a fresh one replaces it.
 */

interface Metered {
  used: number;
  max: number;
}

export interface SignupKey {
  account: AccountSlot;
  key: string;
  keyId: string;
  writes: Metered;
}

export interface Seat extends SignupKey {
  /** An approved login this key created, which it alone may change. */
  label: string;
  website: string;
  email: string;
}

interface AccountSlot {
  account: Account;
  pending: Metered;
  changes: Metered;
  catalog: Metered;
  submissions: Metered;
}

export class Stock {
  private signup?: SignupKey;
  private plain?: { key: string; account: AccountSlot; reads: Metered };
  private seatOf?: Seat;
  private slot?: AccountSlot;

  constructor(private readonly ctx: CaseContext) {}

  private limit(id: string): number {
    return this.ctx.limits.value(id, 'Free');
  }

  private async account(): Promise<AccountSlot> {
    const full = (m: Metered) => m.used >= m.max;
    if (!this.slot || full(this.slot.pending) || full(this.slot.changes) || full(this.slot.catalog) || full(this.slot.submissions)) {
      this.slot = {
        account: await this.ctx.account({ plan: 'Free' }),
        pending: { used: 0, max: this.limit('pending-signup-requests') },
        // Half the budget: the other half is left for a sequence's own approvals and rotations.
        changes: { used: 0, max: Math.floor(this.limit('credential-changes-per-account') / 2) },
        catalog: { used: 0, max: Math.floor(this.limit('catalog-per-account') / 2) },
        submissions: { used: 0, max: this.limit('recipe-submissions-per-account') },
      };
    }
    return this.slot;
  }

  /** A key with the signup permission and one more login write left in its window. */
  async signupKey(): Promise<SignupKey> {
    if (!this.signup || this.signup.writes.used >= this.signup.writes.max || this.signup.account.pending.used >= this.signup.account.pending.max) {
      const account = await this.account();
      const issued = await account.account.issueKey({ signup: true });
      this.signup = { account, key: issued.key, keyId: issued.keyId, writes: { used: 0, max: this.limit('login-writes-per-key') } };
    }
    this.signup.writes.used++;
    return this.signup;
  }

  /** Notes a filing that left a request pending. */
  pendingFiled(key: SignupKey): void {
    key.account.pending.used++;
  }

  /** A key without the signup permission, with catalog reads left for this window. */
  async plainKey(): Promise<string> {
    if (!this.plain || this.plain.reads.used >= this.plain.reads.max || this.plain.account.catalog.used >= this.plain.account.catalog.max) {
      const account = await this.account();
      this.plain = { key: (await account.account.issueKey()).key, account, reads: { used: 0, max: Math.floor(this.limit('catalog-per-key') / 2) } };
    }
    this.plain.reads.used++;
    this.plain.account.catalog.used++;
    return this.plain.key;
  }

  /** A key with submissions left on its account: every submission counts, refused ones too, as a deployment may count them. */
  async recipeKey(): Promise<string> {
    if (this.plain && this.plain.account.submissions.used >= this.plain.account.submissions.max) this.plain = undefined;
    const key = await this.plainKey();
    this.plain!.account.submissions.used++;
    return key;
  }

  /** An approved login created by a key that has one more login write left. */
  async seat(): Promise<Seat> {
    if (!this.seatOf || this.seatOf.writes.used >= this.seatOf.writes.max || this.seatOf.account.changes.used >= this.seatOf.account.changes.max) {
      const key = await this.freshSignupKey();
      const website = `${this.ctx.unique('seat')}.com`;
      const email = this.ctx.email();
      key.writes.used++;
      const filed = await this.ctx.call('fileSignupRequest', { key: key.key, json: { website, email } });
      if (filed.response.status !== 202) throw new RunnerError('runner', `could not file a signup request to set up a login (${filed.response.status})`);
      const { requestId } = body(filed) as { requestId: string };
      const token = await key.account.account.signupLink(requestId);
      const decided = await this.ctx.call('decideSignupApproval', { params: { token }, json: { decision: 'approve' } });
      key.account.changes.used++;
      const poll = await this.ctx.call('getSignupRequest', { key: key.key, params: { id: requestId } });
      const answer = body(poll) as { status?: string; login?: { label: string } };
      if (decided.response.status < 200 || decided.response.status > 299 || answer.status !== 'approved') throw new RunnerError('runner', `could not approve a signup request to set up a login (${answer.status})`);
      this.seatOf = { ...key, label: answer.login!.label, website, email };
    }
    this.seatOf.writes.used++;
    return this.seatOf;
  }

  private async freshSignupKey(): Promise<SignupKey> {
    const account = await this.account();
    const issued = await account.account.issueKey({ signup: true });
    return { account, key: issued.key, keyId: issued.keyId, writes: { used: 0, max: this.limit('login-writes-per-key') } };
  }

  /** Notes a credential change (a rotation) charged to the seat's account. */
  changed(seat: Seat): void {
    seat.account.changes.used++;
  }

  private purchase?: string;
  private signupApproval?: string;

  /** A purchase hold's link, still pending: refused decisions leave it so, and it is used again. */
  async purchaseLink(): Promise<string> {
    this.purchase ??= await (await this.account()).account.holdPurchase({ kind: 'over_threshold', offersDeclared: true });
    return this.purchase;
  }

  /** A pending signup request's link, used again until a decision takes effect. */
  async signupLink(): Promise<string> {
    if (!this.signupApproval) {
      const key = await this.signupKey();
      const filed = await this.ctx.call('fileSignupRequest', { key: key.key, json: { website: `${this.ctx.unique('link')}.com`, email: this.ctx.email() } });
      if (filed.response.status !== 202) throw new RunnerError('runner', `could not file a signup request to get its link (${filed.response.status})`);
      this.pendingFiled(key);
      this.signupApproval = await key.account.account.signupLink((body(filed) as { requestId: string }).requestId);
    }
    return this.signupApproval;
  }

  /** After a finding, nothing on which it happened is used again: its state is no longer known. */
  retire(): void {
    this.signup = undefined;
    this.plain = undefined;
    this.seatOf = undefined;
    this.slot = undefined;
    this.purchase = undefined;
    this.signupApproval = undefined;
  }
}
