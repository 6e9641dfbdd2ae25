/**
 * Login labels (sections 2.7, 8.4): the site name's label, then `<name>2` up to `<name><max>`.
 * Labels are shared by every site with the same name (acme.com and acme.co.uk both start at
 * `acme`), so a label is taken by any login of the account that holds it. A label never exceeds 32
 * characters: a long name is shortened to make room for its number.
 */
export const LABEL_MAX_LENGTH = 32;

/**
 * The first free label of `base`, asking `taken` of each in turn: a label is looked up by itself,
 * so the cost is that of the labels of one site name tried, not of the account's whole set.
 */
export async function allocateLabel(taken: (label: string) => Promise<boolean>, base: string, max: number): Promise<string | null> {
  for (let n = 1; n <= max; n++) {
    const suffix = n === 1 ? '' : String(n);
    const label = base.slice(0, LABEL_MAX_LENGTH - suffix.length) + suffix;
    if (!(await taken(label))) return label;
  }
  return null;
}
