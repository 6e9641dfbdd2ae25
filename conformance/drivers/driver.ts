/**
 * The account-holder driver: what the runner needs done by someone who acts as the account holder
 * (the dashboard side of the service, which the HTTP API does not offer to agents). The runner
 * ships one implementation over the reference server's back office (drivers/back-office.ts). A
 * deployment writes its own as an ES module that default-exports a `DriverFactory`, and passes its
 * path with `--driver ./my-driver.mjs` (options with `--driver-option name=value`); a `.js` file is an
 * ES module only in a package whose package.json says `"type": "module"`.
 *
 * Methods marked optional may be left out: the cases that need them then report "not run: the
 * driver cannot <method>". Every method throws (or rejects) when it cannot do what it was asked;
 * the runner then reports the case as an error, never as a failure of the deployment.
 *
 * Calls run concurrently: with `--jobs N` (4 by default) up to N cases run at once, each on
 * accounts of its own, and each may call the driver while the others do. A driver therefore keeps
 * no state between calls but what it can share safely (a connection pool, a cache keyed by account
 * or token), and serialises itself where its back office needs one call at a time. The cases that
 * move the clock run alone, after the others.
 *
 * Secrets passed in (card numbers, passwords, TOTP secrets, identity and address values) become
 * canaries: no response of the API may ever contain one.
 */

import type { components } from '../runner/generated/back-office.js';

export type PlanName = 'Free' | 'Plus' | 'Enterprise';

export interface IssuedKey {
  keyId: string;
  /** The secret sent as `Authorization: Bearer <key>`. */
  key: string;
}

export interface CardInput {
  /** 12 to 19 digits. */
  number: string;
  /** `true`: usable on any site (with an optional block list); `false`: only on the sites of `allow`. */
  anySite: boolean;
  allow?: string[];
  block?: string[];
}

/** A login to save: the body of the reference back office's `addLogin` (`CreateLoginRequest`), generated from its document. */
export type LoginInput = components['schemas']['CreateLoginRequest'];

export type IdentityField = 'first_name' | 'last_name' | 'full_name' | 'email' | 'date_of_birth' | 'phone';

export interface AddressInput {
  /** 1 to 16 lowercase letters or digits. */
  label: string;
  name?: string;
  line1?: string;
  line2?: string;
  city?: string;
  region?: string;
  postal_code?: string;
  country?: string;
}

export interface PurchaseHold {
  /** Why the purchase is held; `amount_mismatch` accepts only an approval at the declared total. */
  kind?: string;
  offersDeclared?: boolean;
}

/**
 * The state of a link as its account holder sees it, in the runner's words (map your back office's
 * onto these):
 * - `pending`: issued and still usable (a purchase hold or a signup request awaiting a decision,
 *   including a signup approval that could not complete, with `approvalFailure`);
 * - `approved`, `denied`: decided through the link (or the dashboard);
 * - `opened`: a security-code prompt or a challenge handoff that was read once, and so is used up;
 * - `expired`: past its lifetime, undecided or unread.
 */
export type LinkStatus = 'pending' | 'approved' | 'denied' | 'opened' | 'expired';

/**
 * What the account holder's dashboard shows of one link and of the decision taken on it. The
 * specification does not show the answers of the links themselves (section 4.11), so a case that
 * needs the outcome of a decision reads it here.
 */
export interface LinkState {
  status: LinkStatus;
  /** A purchase approved: the total the approval stands for. */
  decidedAt?: 'page' | 'declared';
  /** A signup request still pending after an approval that could not complete: the check that failed (section 8.4). */
  approvalFailure?: 'login_limit' | 'label_unavailable' | 'scope_full' | 'daily_limit' | string;
}

/** An agent card whose webhook endpoint the driver set (section 6), or why the deployment refused it. */
export type WebhookRegistration = { cardId: string; signingSecret: string } | { refused: string };

/** One delivery as the account holder's delivery list shows it (section 6 item 4). */
export interface WebhookDeliveryState {
  /** Some attempt of it was acknowledged with a 2xx in time. */
  delivered: boolean;
  /**
   * Every attempt so far: the status the endpoint answered (`null` when none came), and whether
   * the attempt failed; `connectionFailed` when no connection to the endpoint could be made (the
   * name did not resolve, the address refused or was not dialled), with the log's `detail`. A
   * connection that failed tells the runner its receiver cannot be reached from the deployment.
   */
  attempts: { statusCode: number | null; failed: boolean; connectionFailed?: boolean; detail?: string }[];
}

export type RecipeKind = 'merchant' | 'platform' | 'signup' | 'signup-platform';
export type LookupSlot = 'merchant' | 'platform' | 'signup' | 'signupPlatform';

/** What the runner asks of a sample recipe. */
export interface RecipeRequest {
  kind: RecipeKind;
  /** A fresh registrable domain, unique to the request: the recipe is for this site (its key names it). */
  site: string;
  /** The status the recipe is submitted with (section 2.2): what the index serves until a maintainer decides. */
  status: 'verified' | 'partial' | 'unverified' | 'dead-end';
  /** For `merchant` and `signup`: the platform recipe it names (a key the runner contributed before), or `custom`. */
  platform?: string;
}

/** A recipe the registry will accept, with what the runner needs to find it again. */
export interface RecipeSample {
  /** The recipe body, as the registry takes it in POST /v1/recipes (alone or in the `recipe` member of the wrapper). */
  recipe: Record<string, unknown>;
  /** Its key, as the index will list it (`signup:`-prefixed for the signup kinds). */
  key: string;
  /** A page URL it serves in lookups (GET /v1/recipes?url=...); a `platform` recipe's hosted checkout page. */
  page?: string;
}

export interface ClockState {
  now: number;
  manual: boolean;
}

export interface AccountHolderDriver {
  /** Opens an account on a plan; the runner opens one or more per case. */
  openAccount(input: { plan: PlanName; name?: string }): Promise<{ accountId: string }>;
  /** Deletes an account and everything in it (the runner cleans up after each case when it can). */
  deleteAccount?(accountId: string): Promise<void>;
  changePlan?(accountId: string, plan: PlanName): Promise<void>;

  /** Issues a key: signup permission off unless asked; scope `all` unless a list of login labels is given. */
  issueKey(accountId: string, input: { name?: string; signup?: boolean; scope?: 'all' | string[] }): Promise<IssuedKey>;
  revokeKey(accountId: string, keyId: string): Promise<void>;
  /**
   * Adds a login to a scoped key's list, as the account holder does (section 5 item 6). The runner
   * calls it only for keys it issued with a list (`scope: [...]`). A key whose scope is all logins
   * has no list and already reaches every login: the call must never narrow it to a list; a driver
   * may throw (the back-office driver does: the reference answers 409 `key_not_scoped`) or do nothing.
   * `removeKeyLogin` is the same for taking one off.
   */
  addKeyLogin?(accountId: string, keyId: string, label: string): Promise<void>;
  removeKeyLogin?(accountId: string, keyId: string, label: string): Promise<void>;

  saveCard(accountId: string, card: CardInput): Promise<void>;
  /** Saves a login; returns the label the service gave it. */
  saveLogin(accountId: string, login: LoginInput): Promise<{ label: string }>;
  deleteLogin(accountId: string, label: string): Promise<void>;
  /** Replaces a login's password as the account holder (section 4.7, `passwordOwnerManaged`). */
  replacePassword?(accountId: string, label: string, password: string): Promise<void>;
  setIdentity?(accountId: string, fields: Partial<Record<IdentityField, string | null>>): Promise<void>;
  saveAddress?(accountId: string, address: AddressInput): Promise<void>;

  /** Puts sites on the pre-approved signup list with the exact email an agent must file with. */
  preapproveSites?(accountId: string, sites: string[], email: string): Promise<void>;
  removePreapprovedSite?(accountId: string, site: string): Promise<void>;

  /**
   * The token of the account holder's link for a signup request (section 4.11), as the holder
   * receives it, or undefined when the holder received none. The runner decides through the link
   * itself (`/v1/signup-requests/{token}`).
   */
  signupLink(accountId: string, requestId: string): Promise<string | undefined>;
  /** Tokens of links the proxy would send: a held purchase, a live security-code prompt, a challenge handoff. */
  holdPurchase?(accountId: string, hold: PurchaseHold): Promise<{ token: string }>;
  promptSecurityCode?(accountId: string): Promise<{ token: string }>;
  handOffChallenge?(accountId: string): Promise<{ token: string }>;

  /** The state of a link of the account as its holder sees it (undefined when the account has no such link). */
  linkState?(accountId: string, token: string): Promise<LinkState | undefined>;

  /**
   * A registry maintainer's decision on a contributed recipe, taken in any state (it ends screening
   * if still pending). `merge` makes it the live version of its key: the submission's status
   * becomes `merged`. `reject` takes it out of the live set: `rejected`. `verify` merges it and
   * approves its verification claim: the submission's status becomes `merged` (as with `merge`),
   * and the recipe is served as `verified` with its note published verbatim as `evidence`. The
   * runner reads the outcome through the API (the index and the submission), never through the driver.
   */
  decideRecipeSubmission?(submissionId: string, decision: 'merge' | 'verify' | 'reject'): Promise<void>;

  /**
   * Webhooks (section 6): saves a new agent card on the account with `url` as its webhook endpoint
   * and returns its id and signing secret, or `{ refused }` with the deployment's reason when it
   * would not register the endpoint (a plan without webhooks, an address it does not deliver to).
   * `url` is the runner's own receiver, on the runner's machine.
   */
  registerWebhook?(accountId: string, url: string): Promise<WebhookRegistration>;
  /**
   * What section 6 item 6 leaves open, as this deployment chose it: the header that carries the
   * signature, the header of `t` when another, and the format of `t` (`unix-seconds`,
   * `unix-milliseconds`, `iso-8601`, `http-date`). Without it the runner searches every header.
   * The options `--webhook-signature-header` and the others win over it.
   */
  webhookSignature?: { header?: string; timestampHeader?: string; timestamp?: 'unix-seconds' | 'unix-milliseconds' | 'iso-8601' | 'http-date' };
  /** Sends a test delivery to the card's endpoint, as the account holder can. */
  sendTestWebhook?(accountId: string, cardId: string): Promise<void>;
  /** The card's recent deliveries, newest first. */
  webhookDeliveries?(accountId: string, cardId: string): Promise<WebhookDeliveryState[]>;

  /**
   * A recipe in the deployment's own format (section 2.2 does not show the structure of a recipe
   * body), of `kind`, for the fresh site the runner names, which the registry will accept. Without
   * it the runner submits the reference server's format; a deployment that refuses that leaves the
   * cases that need an accepted contribution `not run`, never passed.
   */
  sampleRecipe?(request: RecipeRequest): Promise<RecipeSample>;
  /**
   * A page URL the registry's own recipes serve, for each lookup slot it can fill (section 2.3),
   * for the case that looks the registry up. Without it the runner reads the pages from the full
   * bundle in the reference's format, or reports that case `not run`.
   */
  registryPages?(): Promise<Partial<Record<LookupSlot, string>>>;

  /** The deployment's clock. `manual: true` means it moves only through `advanceClock`. */
  clock?(): Promise<ClockState>;
  advanceClock?(ms: number): Promise<ClockState>;

  /**
   * Checked once before the first case: throws when the driver cannot work (its back office is
   * down, its token refused). Without it the runner opens one account and deletes it.
   */
  check?(): Promise<void>;

  /** Called once when the run ends. */
  close?(): Promise<void>;
}

export interface DriverContext {
  /** The base URL the runner tests. */
  baseUrl: string;
  /** `--driver-option name=value` pairs, and the `driverOptions` of a config file. */
  options: Record<string, string>;
}

export type DriverFactory = (context: DriverContext) => AccountHolderDriver | Promise<AccountHolderDriver>;

/** Methods every driver has; the others are optional. */
export const REQUIRED_METHODS = ['openAccount', 'issueKey', 'revokeKey', 'saveCard', 'saveLogin', 'deleteLogin', 'signupLink'] as const;

export type DriverMethod = Exclude<keyof AccountHolderDriver, 'close' | 'check' | 'webhookSignature'>;
