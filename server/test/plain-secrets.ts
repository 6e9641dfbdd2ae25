// The secrets the at-rest tests store and then look for, in plain text, in what the store keeps.
import { openAccount } from '../domain/accounts.js';
import type { Db } from '../store/db.js';
import type { Sealer } from '../store/secrets.js';
import { createKey, findLiveKey } from '../store/keys.js';
import { insertLogin, readPassword } from '../store/logins.js';
import { insertCard } from '../store/cards.js';

/**
 * Stores a key, a login and a card through `writer`, proves `reader` opens them again, and returns
 * every plain value that must appear nowhere at rest.
 */
export async function storePlainSecrets(writer: Db, reader: Db, sealer: Sealer): Promise<{ accountId: string; plain: string[] }> {
  const now = Date.now();
  const account = await openAccount(writer, { plan: 'Free', name: 'x', now });
  const { secret } = await createKey(writer, { accountId: account.id, name: 'k', signupEnabled: false, scoped: false, now });
  const loginId = await insertLogin(writer, sealer, {
    accountId: account.id,
    label: 'acme',
    website: 'acme.com',
    extraWebsites: [],
    email: 'plain-email@example.com',
    username: 'plain-username',
    password: 'plain-password-123',
    totpSecret: 'PLAINTOTPSECRET',
    now,
  });
  await insertCard(writer, sealer, { accountId: account.id, number: '4242424242424242', anySite: true, allow: [], block: [], agent: false, limits: null, now });
  if ((await findLiveKey(reader, secret))?.account_id !== account.id) throw new Error('the stored key was not found again');
  if ((await readPassword(reader, sealer, loginId)) !== 'plain-password-123') throw new Error('the stored password was not read back');
  return { accountId: account.id, plain: ['plain-email@example.com', 'plain-username', 'plain-password-123', 'PLAINTOTPSECRET', '4242424242424242', secret] };
}
