import type { components } from '../../generated/back-office.js';
import { transaction } from '../../store/db.js';
import { deleteLogin, getLogin, insertLogin, labelTaken, setPassword } from '../../store/logins.js';
import { loginEntryOf } from '../catalog.js';
import { checkLoginPassword, checkLoginUsername, extraSiteHosts, loginWebsite } from '../dashboard.js';
import { ApiError } from '../errors.js';
import { allocateLabel } from '../labels.js';
import { siteLabel } from '../sites.js';
import { requireAccount, requireLoginOf, type BackOfficeDeps } from './lookups.js';

/** The back office's saved logins (tag Logins): addLogin, removeLogin, replaceLoginPassword. */

/** A login the account holder saves: the back office's `CreateLoginRequest`, as the document defines it. */
export type NewLogin = components['schemas']['CreateLoginRequest'];

/** Saves a login under the first free label of its site name; answers its catalog entry, the same one GET /v1/tokens lists. */
export async function addLogin({ db, sealer, clock, contract, limiter }: BackOfficeDeps, accountId: string, login: NewLogin) {
  const account = await requireAccount(db, accountId);
  const website = loginWebsite(login.website);
  const extraWebsites = extraSiteHosts(login.extraWebsites ?? []);
  if (login.username !== undefined) checkLoginUsername(login.username);
  checkLoginPassword(login.password);
  const maxLabels = limiter.max(contract.limit('labels-per-site-name'), account.plan);
  const loginId = await transaction(db, async (db) => {
    const base = siteLabel(website);
    const label = await allocateLabel((l) => labelTaken(db, account.id, l), base, maxLabels);
    if (!label) {
      throw new ApiError(409, 'label_unavailable', `Every label for the site name "${base}" is taken (${base}, ${base}2 to ${base}${maxLabels}).`);
    }
    return insertLogin(db, sealer, {
      accountId: account.id,
      label,
      website,
      extraWebsites,
      email: login.email ?? null,
      username: login.username ?? null,
      password: login.password,
      totpSecret: login.totpSecret ?? null,
      now: clock.now(),
    });
  });
  return loginEntryOf(db, (await getLogin(db, loginId))!);
}

export async function removeLogin({ db }: BackOfficeDeps, accountId: string, label: string): Promise<void> {
  const account = await requireAccount(db, accountId);
  if (!await deleteLogin(db, account.id, label)) throw new ApiError(404, 'not_found', `No login labelled "${label}" in this account.`);
}

/** The account holder's own password: owner-managed from now on (sections 2.5, 4.7, 4.9). */
export async function replaceLoginPassword({ db, sealer }: BackOfficeDeps, accountId: string, label: string, password: string): Promise<void> {
  const login = await requireLoginOf(db, await requireAccount(db, accountId), label);
  checkLoginPassword(password);
  await setPassword(db, sealer, login.id, password, true);
}
