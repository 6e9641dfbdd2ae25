import type { AccountHolderDriver, AddressInput, DriverMethod, IdentityField, IssuedKey, LinkState, PlanName, PurchaseHold, WebhookDeliveryState, WebhookRegistration } from '../drivers/driver.js';
import type { Canaries } from './canaries.js';
import type { Secrets } from './secrets.js';
import { cardNumber, password as newPassword, totpSecret, word, type Random } from './data.js';
import { NotRun, RunnerError } from './outcome.js';

/**
 * Calls the driver on a case's behalf: a driver failure is an error of the run, never a failure of
 * the deployment, and a method the case did not declare in `needs.driver` is a catalogue bug.
 */
export class DriverCalls {
  constructor(
    readonly driver: AccountHolderDriver,
    private readonly declared: Set<string> | 'all',
  ) {}

  async run<M extends DriverMethod>(method: M, ...args: Parameters<NonNullable<AccountHolderDriver[M]>>): Promise<Awaited<ReturnType<NonNullable<AccountHolderDriver[M]>>>> {
    const fn = this.driver[method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
    if (!fn) {
      const hint = this.declared !== 'all' && !this.declared.has(method) ? ' (the case does not declare it in needs.driver)' : '';
      throw new RunnerError('runner', `the driver has no ${method}${hint}`);
    }
    try {
      return (await fn.apply(this.driver, args)) as Awaited<ReturnType<NonNullable<AccountHolderDriver[M]>>>;
    } catch (e) {
      if (e instanceof RunnerError) throw e;
      throw new RunnerError('driver', `driver ${method}: ${(e as Error).message}`);
    }
  }
}

export interface SavedLogin {
  label: string;
  website: string;
  email?: string;
  password: string;
}

/**
 * One account of a case, opened through the driver: every secret stored through it is a fresh
 * random canary, and every key it issues is masked in reports.
 */
export class Account {
  constructor(
    readonly id: string,
    readonly plan: PlanName,
    private readonly calls: DriverCalls,
    private readonly random: Random,
    private readonly canaries: Canaries,
    private readonly secrets: Secrets,
  ) {}

  async issueKey(options: { signup?: boolean; scope?: 'all' | string[]; name?: string } = {}): Promise<IssuedKey> {
    const issued = await this.calls.run('issueKey', this.id, options);
    const kind = [options.signup ? 'signup' : '', options.scope && options.scope !== 'all' ? 'scoped' : ''].filter(Boolean).join(' ');
    this.secrets.add(issued.key, `API key${kind ? ` (${kind})` : ''}`);
    return issued;
  }

  revokeKey(keyId: string): Promise<void> {
    return this.calls.run('revokeKey', this.id, keyId);
  }

  addKeyLogin(keyId: string, label: string): Promise<void> {
    return this.calls.run('addKeyLogin', this.id, keyId, label);
  }

  removeKeyLogin(keyId: string, label: string): Promise<void> {
    return this.calls.run('removeKeyLogin', this.id, keyId, label);
  }

  changePlan(plan: PlanName): Promise<void> {
    return this.calls.run('changePlan', this.id, plan);
  }

  /** Saves a card with a fresh random number, which becomes a canary. */
  async saveCard(card: { anySite: boolean; allow?: string[]; block?: string[] }): Promise<string> {
    const number = cardNumber(this.random);
    this.canaries.add(number, 'card number');
    await this.calls.run('saveCard', this.id, { number, ...card });
    return number;
  }

  /** Saves a login with a fresh random password (and TOTP secret when asked), which become canaries. */
  async saveLogin(login: { website: string; extraWebsites?: string[]; email?: string; username?: string; totp?: boolean }): Promise<SavedLogin> {
    const password = newPassword(this.random);
    this.canaries.add(password, 'password');
    const totp = login.totp ? totpSecret(this.random) : undefined;
    if (totp) this.canaries.add(totp, 'TOTP secret');
    const { totp: _, ...fields } = login;
    const { label } = await this.calls.run('saveLogin', this.id, { ...fields, password, ...(totp ? { totpSecret: totp } : {}) });
    return { label, website: login.website, email: login.email, password };
  }

  deleteLogin(label: string): Promise<void> {
    return this.calls.run('deleteLogin', this.id, label);
  }

  async replacePassword(label: string): Promise<string> {
    const password = newPassword(this.random);
    this.canaries.add(password, 'password');
    await this.calls.run('replacePassword', this.id, label, password);
    return password;
  }

  /** Sets identity fields to fresh random values (canaries); `null` clears a field. */
  async setIdentity(fields: Partial<Record<IdentityField, string | null>> = {}): Promise<Partial<Record<IdentityField, string | null>>> {
    const values: Partial<Record<IdentityField, string | null>> = {
      first_name: `Cf${word(this.random, 12)}`,
      last_name: `Cl${word(this.random, 12)}`,
      email: `${word(this.random, 12)}@${word(this.random, 8)}.com`,
      phone: `+1415${this.random.int(2000000, 9999999)}`,
      ...fields,
    };
    for (const value of Object.values(values)) if (typeof value === 'string') this.canaries.add(value, 'identity value');
    await this.calls.run('setIdentity', this.id, values);
    return values;
  }

  async saveAddress(label: string): Promise<AddressInput> {
    const address: AddressInput = {
      label,
      name: `An${word(this.random, 12)}`,
      line1: `${this.random.int(100, 999)} ${word(this.random, 12)} Street`,
      city: `Ci${word(this.random, 10)}`,
      postal_code: String(this.random.int(10000, 99999)),
      country: 'US',
    };
    for (const value of [address.name, address.line1, address.city]) this.canaries.add(value, 'address value');
    await this.calls.run('saveAddress', this.id, address);
    return address;
  }

  preapprove(sites: string[], email: string): Promise<void> {
    return this.calls.run('preapproveSites', this.id, sites, email);
  }

  removePreapproved(site: string): Promise<void> {
    return this.calls.run('removePreapprovedSite', this.id, site);
  }

  /** The token of the holder's link for a signup request; the driver must have one. */
  async signupLink(requestId: string): Promise<string> {
    const token = await this.calls.run('signupLink', this.id, requestId);
    if (!token) throw new RunnerError('driver', `the driver found no account-holder link for signup request ${requestId}`);
    this.secrets.add(token, 'link token');
    return token;
  }

  /** The link's state as the account holder sees it; the driver must know the link. */
  async linkState(token: string): Promise<LinkState> {
    if (typeof this.calls.driver.linkState !== 'function') throw new NotRun('the driver cannot linkState');
    const state = await this.calls.run('linkState', this.id, token);
    if (!state) throw new RunnerError('driver', 'the driver found no such account-holder link');
    return state;
  }

  async holdPurchase(hold: PurchaseHold = {}): Promise<string> {
    const { token } = await this.calls.run('holdPurchase', this.id, hold);
    this.secrets.add(token, 'link token');
    return token;
  }

  async promptSecurityCode(): Promise<string> {
    const { token } = await this.calls.run('promptSecurityCode', this.id);
    this.secrets.add(token, 'link token');
    return token;
  }

  async handOffChallenge(): Promise<string> {
    const { token } = await this.calls.run('handOffChallenge', this.id);
    this.secrets.add(token, 'link token');
    return token;
  }

  /** An agent card with `url` as its webhook endpoint; its signing secret is masked in reports. */
  async registerWebhook(url: string): Promise<WebhookRegistration> {
    const registration = await this.calls.run('registerWebhook', this.id, url);
    if ('signingSecret' in registration) this.secrets.add(registration.signingSecret, 'webhook signing secret');
    return registration;
  }

  sendTestWebhook(cardId: string): Promise<void> {
    return this.calls.run('sendTestWebhook', this.id, cardId);
  }

  webhookDeliveries(cardId: string): Promise<WebhookDeliveryState[]> {
    return this.calls.run('webhookDeliveries', this.id, cardId);
  }

  delete(): Promise<void> {
    return this.calls.run('deleteAccount', this.id);
  }
}
