import type { Case } from './case.js';
import { UsageError } from './options.js';

/**
 * Tags of a case, read from what it declares (its level, the basis of its rule, what it needs and
 * what it costs), never written by hand, so they cannot drift from the case: a pipeline selects
 * with them (`--tag needs-driver`, `--tag '!spends'`) and reads them in the reports.
 */
export const TAGS: Record<string, string> = {
  must: 'a requirement of the specification (level must)',
  should: 'a recommendation (level should)',
  spec: 'proves a sentence of the specification',
  http: 'proves a rule of HTTP',
  reference: "proves a choice of the reference server, which binds nobody else",
  'needs-driver': 'needs the account-holder driver',
  'needs-keys': 'runs on given keys, without a driver',
  'needs-manual-clock': 'needs a deployment clock the driver moves',
  webhooks: 'takes webhook deliveries at the runner\'s receiver',
  spends: 'spends a rate limit, budget or ceiling (runs only with --spend)',
  'creates-data': 'creates data the runner cannot remove (runs only with --spend)',
  waits: 'waits out a server timeout (runs only with --spend)',
  generated: 'a property of generated inputs (--generate)',
};

export function tagsOf(c: Case): string[] {
  const tags = [c.level, c.basis && c.basis.kind !== 'spec' ? c.basis.kind : 'spec'];
  if (c.needs.driver) tags.push('needs-driver');
  else if (c.needs.keys?.length) tags.push('needs-keys');
  if (c.needs.manualClock) tags.push('needs-manual-clock');
  if (Array.isArray(c.needs.driver) && c.needs.driver.some((m) => m.toLowerCase().includes('webhook'))) tags.push('webhooks');
  if (c.costs.spends) tags.push('spends');
  if (c.costs.createsData) tags.push('creates-data');
  if (c.costs.waits) tags.push('waits');
  if ((c as { generated?: unknown }).generated === true) tags.push('generated');
  return tags;
}

/** `--tag T` (every one given must hold) and `--tag '!T'` (must not); an unknown tag is a usage error. */
export function matchesTags(c: Case, wanted: string[]): boolean {
  if (wanted.length === 0) return true;
  const tags = new Set(tagsOf(c));
  return wanted.every((w) => (w.startsWith('!') ? !tags.has(w.slice(1)) : tags.has(w)));
}

export function checkTags(wanted: string[]): void {
  for (const w of wanted) {
    const tag = w.replace(/^!/, '');
    if (!(tag in TAGS)) throw new UsageError(`--tag ${w}: no such tag; the tags are ${Object.keys(TAGS).join(', ')}`);
  }
}
