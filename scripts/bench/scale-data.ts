// Data at the sizes the specification allows, for the bench's scale section: a registry release of
// 10,000 recipes (the shipped release and generated merchants), and an account at 500 logins, 50
// cards and 20 addresses. Each measured account also has a login its signup key created, so that
// the bench can write to it through the API (a password rotation), and the server seeds a second
// account to write to as "another account". A login the bench adds and removes through the
// back office changes the measured account's catalog.
import { readFileSync, writeFileSync } from 'node:fs';
import { stmt, transaction, type Db } from '../../server/store/db.js';
import type { Sealer } from '../../server/store/secrets.js';
import { openAccount } from '../../server/domain/accounts.js';
import { createKey, hashKey } from '../../server/store/keys.js';
import { insertLogin } from '../../server/store/logins.js';
import { insertCard } from '../../server/store/cards.js';
import { insertAddress, setIdentityFields } from '../../server/store/profile.js';
import { tokenFieldsOfIdentityField } from '../../server/domain/profile-fields.js';
import { DEMO_ADDRESS, DEMO_IDENTITY } from '../../server/demo.js';

export const LARGE = { recipes: 10_000, logins: 500, cards: 50, addresses: 20 };
/** The label of the login the bench writes to, in the measured account and in the other one. */
export const WRITTEN_LOGIN = 'benchwrite';

const PLATFORMS = ['shopify', 'woocommerce', 'payco', 'custom'];

/** Writes a release of `count` recipes: the shipped one, then generated merchants with a host and a checkout path each. */
export function writeLargeRelease(shipped: string, out: string, count = LARGE.recipes): void {
  const release = JSON.parse(readFileSync(shipped, 'utf8')) as { registryVersion: string; recipes: unknown[] };
  const recipes = [...release.recipes];
  for (let i = 0; recipes.length < count; i++) {
    const site = `bench-shop-${String(i).padStart(5, '0')}.com`;
    recipes.push({
      key: site,
      kind: 'merchant',
      status: i % 3 === 0 ? 'verified' : 'unverified',
      platform: PLATFORMS[i % PLATFORMS.length],
      match: { hosts: [site, `www.${site}`], paths: ['/checkout'] },
      evidence: i % 3 === 0 ? 'Checked by the bench.' : undefined,
      steps: [{ action: 'click', selector: '#checkout' }],
    });
  }
  writeFileSync(out, JSON.stringify({ registryVersion: `${release.registryVersion}-bench`, recipes }));
}

export interface ScaleKeys {
  /** The measured account: its id, a catalog key, and the signup key that created WRITTEN_LOGIN. */
  accountId: string;
  agent: string;
  signup: string;
  /** Another account's signup key, which created its own WRITTEN_LOGIN. */
  otherSignup: string;
}

/**
 * The accounts of the scale section. `large`: a new account at 500 logins, 50 cards and 20
 * addresses is the measured one. Otherwise the demo account is, with one login more.
 */
export function seedScale(db: Db, sealer: Sealer, now: number, large: boolean, demo: { accountId: string; agent: string; signup: string }): Promise<ScaleKeys> {
  return transaction(db, async (db) => {
    let measured = demo;
    if (large) {
      const account = await openAccount(db, { plan: 'Enterprise', name: 'Large account', now });
      const accountId = account.id;
      const agent = await createKey(db, { accountId, name: 'agent', signupEnabled: false, scoped: false, now });
      const signup = await createKey(db, { accountId, name: 'signup', signupEnabled: true, scoped: false, now });
      measured = { accountId, agent: agent.secret, signup: signup.secret };
      for (let i = 0; i < LARGE.logins - 1; i++) {
        const site = i % 10 === 0 ? 'acme.com' : `site-${String(i).padStart(3, '0')}.com`;
        await insertLogin(db, sealer, {
          accountId,
          label: `login${String(i).padStart(3, '0')}`,
          website: site,
          extraWebsites: i % 5 === 0 ? [`shop.${site}`] : [],
          email: `jane+${i}@example.com`,
          ...(i % 2 === 0 ? { username: `jane${i}` } : {}),
          password: `bench password ${i} long enough`,
          ...(i % 7 === 0 ? { totpSecret: 'JBSWY3DPEHPK3PXP' } : {}),
          now,
        });
      }
      for (let i = 0; i < LARGE.cards; i++) {
        const anySite = i % 5 === 0;
        await insertCard(db, sealer, {
          accountId,
          number: i % 2 === 0 ? '4111111111111111' : '5555555555554444',
          anySite,
          allow: anySite ? [] : [i % 4 === 0 ? 'acme.com' : `site-${String(i).padStart(3, '0')}.com`],
          block: [],
          agent: i % 3 === 0,
          limits: null,
          now,
        });
      }
      for (let i = 0; i < LARGE.addresses; i++) {
        await insertAddress(db, sealer, {
          accountId,
          label: `address${i}`,
          fields: { ...DEMO_ADDRESS, line1: `${i} Market St` },
          now,
        });
      }
      await setIdentityFields(
        db,
        sealer,
        accountId,
        DEMO_IDENTITY,
        tokenFieldsOfIdentityField,
      );
    }
    const signupKeyId = async (secret: string) => (await stmt(db, 'SELECT id FROM api_keys WHERE hash = ?').pluck().get(hashKey(secret))) as string;
    const written = (accountId: string, createdByKey: string) =>
      insertLogin(db, sealer, { accountId, label: WRITTEN_LOGIN, website: 'written-site.com', extraWebsites: [], password: 'bench written login password', createdByKey, now });
    await written(measured.accountId, await signupKeyId(measured.signup));
    const other = await openAccount(db, { plan: 'Plus', name: 'Other account', now });
    const otherSignup = await createKey(db, { accountId: other.id, name: 'signup', signupEnabled: true, scoped: false, now });
    await written(other.id, otherSignup.row.id);
    return { accountId: measured.accountId, agent: measured.agent, signup: measured.signup, otherSignup: otherSignup.secret };
  });
}
