import type { Db } from './store/db.js';
import type { Sealer } from './store/secrets.js';
import { createKey } from './store/keys.js';
import { insertCard } from './store/cards.js';
import { insertLogin } from './store/logins.js';
import { insertAddress, setIdentityFields } from './store/profile.js';
import { openAccount } from './domain/accounts.js';
import { tokenFieldsOfIdentityField } from './domain/profile-fields.js';

export interface DemoAccount {
  accountId: string;
  keys: { agent: string; signup: string };
}

/** A demo account on the Plus plan: cards, logins, identity, addresses, and two keys. */
export function seedDemo(db: Db, sealer: Sealer, now: number): DemoAccount {
  return db.transaction(() => {
    const account = openAccount(db, { plan: 'Plus', name: 'Demo account holder', now });
    const accountId = account.id;
    insertCard(db, sealer, { accountId, number: '4111111111111111', anySite: true, allow: [], block: ['casino.example'], agent: false, limits: null, now });
    insertCard(db, sealer, { accountId, number: '5555555555554444', anySite: false, allow: ['acme.com'], block: [], agent: true, limits: { perTransaction: 75, perWeek: 200, per30Days: 500 }, now });
    insertLogin(db, sealer, {
      accountId,
      label: 'acme',
      website: 'acme.com',
      extraWebsites: ['shop.acme.co.uk'],
      email: 'jane@example.com',
      password: 'correct horse battery staple',
      now,
    });
    insertLogin(db, sealer, {
      accountId,
      label: 'acme2',
      website: 'acme.co.uk',
      extraWebsites: [],
      email: 'jane@example.com',
      username: 'jane_uk',
      password: 'another long passphrase',
      now,
    });
    insertLogin(db, sealer, {
      accountId,
      label: 'github',
      website: 'github.com',
      extraWebsites: [],
      username: 'janedoe',
      password: 'gh-demo-password-1',
      totpSecret: 'JBSWY3DPEHPK3PXP',
      now,
    });
    setIdentityFields(
      db,
      sealer,
      accountId,
      { first_name: 'Jane', last_name: 'Doe', full_name: 'Jane Doe', email: 'jane@example.com', phone: '+14155550100', date_of_birth: null },
      tokenFieldsOfIdentityField,
    );
    insertAddress(db, sealer, {
      accountId,
      label: 'home',
      fields: { name: 'Jane Doe', line1: '1 Market St', line2: null, city: 'San Francisco', region: 'CA', postal_code: '94105', country: 'US' },
      now,
    });
    const agent = createKey(db, { accountId, name: 'Demo agent', signupEnabled: false, scoped: false, now });
    const signup = createKey(db, { accountId, name: 'Demo agent with signup permission', signupEnabled: true, scoped: false, now });
    return { accountId, keys: { agent: agent.secret, signup: signup.secret } };
  })();
}
