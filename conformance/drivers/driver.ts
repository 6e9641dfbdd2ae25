/**
 * The account-holder driver: what the runner needs done by someone who acts as the account holder
 * (the dashboard side of the service, which the HTTP API does not offer to agents). The runner
 * ships one implementation over the reference server's fixture surface (drivers/fixtures.ts). A
 * deployment writes its own as an ES module that default-exports a `DriverFactory`, and passes its
 * path with `--driver ./my-driver.js` (options with `--driver-option name=value`).
 *
 * Methods marked optional may be left out: the cases that need them then report "not run: the
 * driver cannot <method>". Every method throws (or rejects) when it cannot do what it was asked;
 * the runner then reports the case as an error, never as a failure of the deployment.
 *
 * Secrets passed in (card numbers, passwords, TOTP secrets, identity and address values) become
 * canaries: no response of the API may ever contain one.
 */

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

export interface LoginInput {
  /** The login's site: a URL or host with a registrable domain. */
  website: string;
  extraWebsites?: string[];
  email?: string;
  username?: string;
  password: string;
  totpSecret?: string;
}

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
 * What the account holder's dashboard shows of one link and of the decision taken on it. The
 * specification does not show the answers of the links themselves (section 4.11), so a case that
 * needs the outcome of a decision reads it here.
 */
export interface LinkState {
  /** `pending` while usable; `approved` or `denied` once decided; `opened` once a prompt was read; `expired` past its lifetime. */
  status: 'pending' | 'approved' | 'denied' | 'opened' | 'expired';
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
  /** Every attempt so far: the status the endpoint answered (`null` when none came), and whether the attempt failed. */
  attempts: { statusCode: number | null; failed: boolean }[];
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
  /** Adds a login to a scoped key's list, as the account holder does. */
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

  /** A registry maintainer's decision on a contributed recipe: merge it, verify it (publishing its note as evidence), or reject it. */
  decideRecipeSubmission?(submissionId: string, decision: 'merge' | 'verify' | 'reject'): Promise<void>;

  /**
   * Webhooks (section 6): saves a new agent card on the account with `url` as its webhook endpoint
   * and returns its id and signing secret, or `{ refused }` with the deployment's reason when it
   * would not register the endpoint (a plan without webhooks, an address it does not deliver to).
   * `url` is the runner's own receiver, on the runner's machine.
   */
  registerWebhook?(accountId: string, url: string): Promise<WebhookRegistration>;
  /** Sends a test delivery to the card's endpoint, as the account holder can. */
  sendTestWebhook?(accountId: string, cardId: string): Promise<void>;
  /** The card's recent deliveries, newest first. */
  webhookDeliveries?(accountId: string, cardId: string): Promise<WebhookDeliveryState[]>;

  /** The deployment's clock. `manual: true` means it moves only through `advanceClock`. */
  clock?(): Promise<ClockState>;
  advanceClock?(ms: number): Promise<ClockState>;

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

export type DriverMethod = Exclude<keyof AccountHolderDriver, 'close'>;
