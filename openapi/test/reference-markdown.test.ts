import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../client/scripts/document-module.js';
import { referenceMarkdown } from '../../scripts/docs/markdown.js';
import { loadBundle, operations, ROOT } from './bundle.js';

/**
 * The reference as one Markdown file (dist/docs/reference.md, `npm run docs`): what a reader
 * without JavaScript, `grep` or a coding agent gets. Every expectation is read from the bundle.
 */

const doc = loadBundle();
const FILE = join(ROOT, 'dist', 'docs', 'reference.md');
const markdown = () => {
  if (!existsSync(FILE)) throw new Error(`${FILE} is missing; run "npm run docs" first`);
  return readFileSync(FILE, 'utf8');
};

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
});
