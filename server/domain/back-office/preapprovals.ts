import { transaction } from '../../store/db.js';
import { countPreapprovals, listPreapprovals, removePreapproval, savePreapprovals } from '../../store/preapprovals.js';
import { ApiError } from '../errors.js';
import { registrableDomain } from '../sites.js';
import { requireAccount, type BackOfficeDeps } from './lookups.js';

/**
 * The account holder's pre-approved signup list (addPreapprovedSites, listPreapprovedSites,
 * removePreapprovedSite): sites in one add counted by line, and on the whole list (section 8.4;
 * the root `x-limits` of the document).
 */

/** The lines of a pasted list: every non-blank line counts, duplicates included. */
function siteLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

export interface PreapprovedSites {
  sites: { site: string; signups: number }[];
}

const listing = (rows: { site: string; signups: number }[]): PreapprovedSites => ({ sites: rows.map((p) => ({ site: p.site, signups: p.signups })) });

export async function addPreapprovedSites({ db, sealer, clock, contract }: BackOfficeDeps, accountId: string, sites: string, email: string): Promise<PreapprovedSites> {
  const perAdd = contract.limit('preapproval-sites-per-add').value!;
  const perAccount = contract.limit('preapproval-sites-per-account').value!;
  const id = (await requireAccount(db, accountId)).id;
  const lines = siteLines(sites);
  if (lines.length === 0) throw new ApiError(400, 'bad_request', 'sites names no site.');
  if (lines.length > perAdd) {
    throw new ApiError(400, 'signup_preapproval_too_many', `At most ${perAdd} sites (lines) per add; this add has ${lines.length}.`);
  }
  const domains = lines.map((line) => {
    const domain = registrableDomain(line);
    if (!domain) throw new ApiError(400, 'invalid_website', `"${line}" names no registrable domain.`);
    return domain;
  });
  await transaction(db, async (db) => {
    const listed = new Set((await listPreapprovals(db, sealer, id)).map((p) => p.site));
    const added = new Set(domains.filter((d) => !listed.has(d))).size;
    if (await countPreapprovals(db, id) + added > perAccount) {
      throw new ApiError(400, 'signup_preapproval_too_many', `At most ${perAccount} sites on the pre-approved list.`);
    }
    await savePreapprovals(db, sealer, id, domains, email, clock.now());
  });
  return listing(await listPreapprovals(db, sealer, id));
}

export async function listPreapprovedSites({ db, sealer }: BackOfficeDeps, accountId: string): Promise<PreapprovedSites> {
  return listing(await listPreapprovals(db, sealer, (await requireAccount(db, accountId)).id));
}

export async function removePreapprovedSite({ db }: BackOfficeDeps, accountId: string, site: string): Promise<void> {
  const id = (await requireAccount(db, accountId)).id;
  if (!await removePreapproval(db, id, registrableDomain(site) ?? site)) throw new ApiError(404, 'not_found', 'This site is not on the pre-approved list.');
}
