import type { AccountHolderDriver } from '../drivers/driver.js';

/**
 * Every account the driver opened in a run, and whether it was deleted. The driver is wrapped, so
 * every way an account is opened (a case, a generated property, the driver check) is counted. At
 * the end the runner tries once more to delete what is left, and lists what it could not delete,
 * with the reason and how to delete it.
 */
export interface LeftAccount {
  accountId: string;
  /** Why it is still there: the driver's error, or that it cannot delete accounts. */
  why: string;
}

export class AccountLedger {
  private readonly open = new Map<string, string>();
  readonly driver: AccountHolderDriver;

  constructor(inner: AccountHolderDriver) {
    const ledger = this;
    this.driver = new Proxy(inner, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (name === 'openAccount' && typeof value === 'function') {
          return async (...args: unknown[]) => {
            const opened = (await value.apply(target, args)) as { accountId: string };
            ledger.open.set(opened.accountId, 'not deleted yet');
            return opened;
          };
        }
        if (name === 'deleteAccount' && typeof value === 'function') {
          return async (accountId: string) => {
            try {
              await value.call(target, accountId);
              ledger.open.delete(accountId);
            } catch (e) {
              if (ledger.open.has(accountId)) ledger.open.set(accountId, (e as Error).message);
              throw e;
            }
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  /** Deletes once more what is left (a case that ended before its clean-up, a transient failure); returns what stays. */
  async settle(): Promise<LeftAccount[]> {
    if (typeof this.driver.deleteAccount !== 'function') {
      return [...this.open.keys()].map((accountId) => ({ accountId, why: 'the driver cannot deleteAccount' }));
    }
    for (const accountId of [...this.open.keys()]) await this.driver.deleteAccount(accountId).catch(() => undefined);
    return [...this.open].map(([accountId, why]) => ({ accountId, why }));
  }
}

/** The console's lines for accounts left behind, with how to delete them. */
export function leftoverLines(left: LeftAccount[], driverOption: string): string[] {
  if (left.length === 0) return [];
  const ids = left.map((a) => a.accountId);
  return [
    `accounts left behind on the deployment (${left.length}): the driver could not delete them`,
    ...left.map((a) => `  ${a.accountId}: ${a.why}`),
    `  delete them in its back office, or with: vault-conformance ${driverOption} --delete-accounts ${ids.join(',')}`,
  ];
}
