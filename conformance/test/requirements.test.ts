import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiDocument } from '../runner/document.js';
import { catalogue } from '../cases/index.js';
import { REQUIREMENTS, isRfcPlace, requirement } from '../requirements/index.js';
import { documentMarks, lintRequirements, unknownRequirements } from '../requirements/lint.js';
import { testedBy, testsOf } from '../runner/report/requirements-md.js';
import { basisOfMark } from '../runner/spec-view.js';
import { EVERY_ANSWER } from '../runner/checks.js';
import { ROOT } from './support/processes.js';

/**
 * The requirements catalogue: the specification walked section by section, every rule the spec
 * judgement enforces named by an id of it. A mark of the document or a case that names no
 * requirement, or a requirement whose place is not in the text, fails here (and in check:cases).
 */

const doc = ApiDocument.load(join(ROOT, 'dist', 'openapi.json'));
const cases = catalogue(doc);

describe('the requirements catalogue', () => {
  it('when linted, then every place exists, every part of the text is covered and every requirement is tested or says why not', () => {
    const tests = testsOf(cases, doc.doc);
    expect(lintRequirements((id) => testedBy(tests(id)))).toEqual([]);
  });

  it('when the document marks a constraint, then the mark names a requirement of the catalogue', () => {
    const marks = documentMarks(doc.doc);
    expect(marks.length).toBeGreaterThan(50);
    expect(unknownRequirements(marks)).toEqual([]);
    expect(unknownRequirements([{ where: '#/x', id: 'no-such-rule' }])).toEqual(['#/x: names no-such-rule, which is no requirement of the catalogue']);
    expect(() => basisOfMark({ spec: 'no-such-rule' })).toThrow(/no requirement of the catalogue/);
    expect(() => basisOfMark({ spec: 'http-json-is-utf8' })).toThrow(/the other kind/);
  });

  it('when a case proves a requirement, then it is one that binds a deployment, and every case proves one or names a reference choice', () => {
    for (const c of cases) {
      for (const id of c.requirements) expect(requirement(id).kind, `${c.id}: ${id}`).toBe('requirement');
      if (c.requirements.length === 0) expect(c.basis?.kind, c.id).toBe('reference');
    }
  });

  it('when the checks of every answer name requirements, then each is in the catalogue', () => {
    for (const id of EVERY_ANSWER) expect(requirement(id).kind).toBe('requirement');
  });

  it('when a statement reads two ways or says "about", then the entry lists both readings or the range', () => {
    const about = REQUIREMENTS.filter((r) => r.range);
    expect(about.map((r) => r.id).sort()).toEqual(['challenge-handoff-lifetime', 'cvv-prompt-lifetime']);
    for (const r of about) expect(r.range!.min).toBeLessThan(r.range!.max);
    for (const id of ['windows-fixed', 'submit-body-cap', 'login-write-body-cap', 'auth-no-store', 'poll-denied-nothing-else', 'username-recorded-once']) {
      expect(requirement(id).readings?.length, id).toBeGreaterThanOrEqual(2);
    }
  });

  it('when every section of the specification is walked, then each has an entry', () => {
    const sections = new Set(REQUIREMENTS.filter((r) => !isRfcPlace(r.place)).map((r) => (r.place as { section: string }).section));
    for (const s of ['intro', '1', '2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '3', '4', '4.1', '4.2', '4.3', '4.4', '4.5', '4.6', '4.7', '4.8', '4.9', '4.10', '4.11', '4.12', '5', '6', '7', '7.1', '7.2', '8.1', '8.2', '8.3', '8.4', '8.5', '8.6', '8.7', '8.8', '8.9', '9']) {
      expect(sections.has(s), s).toBe(true);
    }
  });
});
