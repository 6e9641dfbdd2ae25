import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../client/scripts/document-module.js';
import { fixturesMarkdown, referenceMarkdown } from '../../scripts/docs/markdown.js';
import { referenceView, withServersFilled } from '../../scripts/docs/view.js';
import { loadBundle, operations, ROOT } from './bundle.js';

/**
 * The reference as one Markdown file (dist/docs/reference.md, `npm run docs`): what a reader
 * without JavaScript, `grep` or a coding agent gets. Every expectation is read from the bundle.
 */

const doc = loadBundle();
const fixtures = JSON.parse(readFileSync(join(ROOT, 'dist', 'back-office.json'), 'utf8'));
const built = (name: string) => {
  const file = join(ROOT, 'dist', 'docs', name);
  if (!existsSync(file)) throw new Error(`${file} is missing; run "npm run docs" first`);
  return readFileSync(file, 'utf8');
};
const markdown = () => built('reference.md');

/** Every string a reader sees in a view of a document: its extensions (`x-`) are for tools, not rendered. */
function shownText(node: unknown, out: string[] = []): string[] {
  if (typeof node === 'string') out.push(node);
  else if (Array.isArray(node)) node.forEach((n) => shownText(n, out));
  else if (node && typeof node === 'object') for (const [key, value] of Object.entries(node)) if (!key.startsWith('x-')) shownText(value, out);
  return out;
}

/** The text of one operation's section: from its anchor to the next operation's. */
function sectionOf(text: string, operationId: string): string {
  const start = text.indexOf(`<a id="op-${operationId.toLowerCase()}"></a>`);
  if (start < 0) return '';
  const next = text.indexOf('<a id="op-', start + 1);
  return text.slice(start, next < 0 ? undefined : next);
}

describe('the Markdown reference', () => {
  it('when it is compared with a fresh rendering of the bundle, then it is the same', () => {
    expect(markdown()).toBe(referenceMarkdown(doc));
  });

  it('when it is read from the top, then the quickstart is its first section and both code indexes list every code', () => {
    const text = markdown();
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings.slice(0, 2)).toEqual(['Contents', 'Quickstart']);
    const rows = (heading: string) => {
      const section = text.slice(text.indexOf(`\n## ${heading}\n`) + 1);
      const body = section.slice(0, section.indexOf('\n## ', 1));
      return [...body.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    };
    expect(rows('Error codes')).toEqual(doc.components.schemas.ApiErrorCode.enum);
    expect(rows('Client and proxy error codes')).toEqual(doc.components.schemas.ClientErrorCode.enum);
  });

  it.each(operations(doc).map((op) => [op.operationId, op] as const))('when %s is looked up, then its section has its request, its codes by status and its samples, TypeScript first', (operationId, op) => {
    const section = sectionOf(markdown(), operationId);
    expect(section, 'the operation has a section').not.toBe('');
    expect(section).toContain(`\`${op.method.toUpperCase()} ${op.path}\`: ${op.operation.summary}`);
    for (const [status, codes] of errorCodes(doc, op.operation)) {
      const response = section.slice(section.indexOf(`\n###### ${status}\n`));
      expect(response.startsWith(`\n###### ${status}\n`), `${operationId} ${status}`).toBe(true);
      const table = response.slice(response.indexOf('| Code | Meaning | Handling |'), response.indexOf('\n\n', response.indexOf('| Code | Meaning | Handling |')));
      expect([...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]), `${operationId} ${status}`).toEqual(codes);
    }
    const typescript = section.indexOf('##### Sample: TypeScript');
    expect(typescript).toBeGreaterThan(0);
    expect(section.indexOf('##### Sample: curl')).toBeGreaterThan(typescript);
  });

  it('when a field is listed, then it names a JSON type: the password rules show the type they are read as', () => {
    const text = markdown();
    expect(text).not.toContain('| any JSON value |');
    const signup = sectionOf(text, 'fileSignupRequest');
    for (const [field, type] of [['minLength', 'number'], ['maxLength', 'number'], ['noSymbols', 'boolean'], ['symbols', 'string'], ['noRepeats', 'boolean']]) {
      expect(signup).toMatch(new RegExp(`^\\| \`${field}\` \\| ${type} \\| no \\|`, 'm'));
    }
  });

  it('when the back office is read as Markdown, then fixtures.md is a fresh rendering of its bundle with every operation', () => {
    const text = built('fixtures.md');
    expect(text).toBe(fixturesMarkdown(fixtures));
    for (const op of operations(fixtures)) expect(sectionOf(text, op.operationId), op.operationId).toContain(`\`${op.method.toUpperCase()} ${op.path}\`: ${op.operation.summary}`);
  });

  it('when the webhooks are looked up, then each has its payload fields, its signature header with its format, and its delivery rules', () => {
    const text = markdown();
    for (const [name, item] of Object.entries<any>(doc.webhooks)) {
      const op = item.post;
      const section = sectionOf(text, op.operationId);
      expect(section, name).toContain(`#### Webhook \`${name}\``);
      const event = doc.components.schemas.WebhookEvent;
      for (const field of Object.keys(event.properties)) expect(section).toMatch(new RegExp(`^\\| \`${field}\` \\| [^|]+ \\| ${event.required.includes(field) ? 'yes' : 'no'} \\|`, 'm'));
      const header = doc.components.parameters.WebhookSignature;
      expect(section).toContain(`| \`${header.name}\` | header |`);
      for (const [member, value] of Object.entries(header['x-signature-format'])) expect(section).toContain(`| \`${member}\` | \`${value}\` |`);
      for (const [member, value] of Object.entries<unknown>(op['x-webhook-delivery']).filter(([k]) => k !== 'sections')) expect(section).toContain(`| \`${member}\` | \`${JSON.stringify(value)}\` |`);
    }
    // The signing secret, where it is read and how it rotates: the webhooks guide, part of the reference.
    expect(text).toContain('## Receiving webhooks');
    expect(text).toMatch(/signingSecret/);
    expect(text).toMatch(/previousSecret/);
  });

  it("when a lookup's slot is listed, then RecipeSummary's fields are expanded under it, and its id is explained as the index's key", () => {
    const section = sectionOf(markdown(), 'getRecipes');
    const summary = doc.components.schemas.RecipeSummary;
    for (const slot of ['merchant', 'platform', 'signup', 'signupPlatform']) {
      for (const field of Object.keys(summary.properties)) expect(section, `${slot}.${field}`).toMatch(new RegExp(`^\\| \`${slot}\\.${field}\` \\|`, 'm'));
    }
    expect(section).toMatch(/^\| `merchant\.id` \| string \| yes \| The recipe's key: the value the index and a recipe carry as `key`/m);
  });

  it('when any page of the docs is read, then it cites no section of the specification, which integrators do not have', () => {
    const views = [referenceView(doc, { operation: (id) => id, errorCodes: '#' }), withServersFilled(fixtures)];
    const cited = [...views.flatMap((v) => shownText(v)), markdown(), built('fixtures.md')].flatMap((text) =>
      [...text.matchAll(/(?<!RFC \d{3,4} )\b[Ss]ections? \d[\w.]*/g)].map((m) => text.slice(Math.max(0, m.index - 60), m.index + 30)),
    );
    expect(cited).toEqual([]);
  });
});
