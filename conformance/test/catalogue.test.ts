import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiDocument } from '../runner/document.js';
import { catalogue } from '../cases/index.js';
import { lintCatalogue } from '../runner/catalogue.js';
import { defineCase, type Case } from '../runner/case.js';
import { reference } from '../runner/basis.js';
import { ROOT } from './support/processes.js';

/** The catalogue's lint, which the command line runs before any case (cli.e2e.test.ts). */

describe('the catalogue', () => {
  it('when linted, then it has no problem', () => {
    const doc = ApiDocument.load(join(ROOT, 'dist', 'openapi.json'));
    expect(lintCatalogue(catalogue(doc), doc)).toEqual([]);
  });

  it('when a case breaks the rules, then the lint names each problem', () => {
    const doc = ApiDocument.load(join(ROOT, 'dist', 'openapi.json'));
    const bad = [
      defineCase({ id: 'getTokenCatalog/x', title: 'Does a thing', requirements: ['tokens-answer-200'], needs: {}, costs: {}, run: async () => undefined }),
      defineCase({ id: 'getTokenCatalog/x', title: 'It should do a thing', sections: ['4.99'], basis: reference('A choice of the reference server.'), needs: {}, costs: {}, run: async () => undefined }),
      defineCase({ id: 'noSuchOperation/Bad_Slug', title: 'x'.repeat(70), requirements: ['service-keeps-account-data'], needs: { manualClock: true }, costs: {}, run: async () => undefined }),
      { ...defineCase({ id: 'getTokenCatalog/y', title: 'Names a made-up requirement', requirements: ['tokens-answer-200'], needs: {}, costs: {}, run: async () => undefined }), requirements: ['no-such-requirement'] } as unknown as Case,
      { ...defineCase({ id: 'getTokenCatalog/z', title: 'Proves nothing', requirements: ['tokens-answer-200'], needs: {}, costs: {}, run: async () => undefined }), requirements: [] } as unknown as Case,
    ];
    const problems = lintCatalogue(bad, doc).join('\n');
    for (const expected of ['used twice', 'says "should"', 'section 4.99', 'no operation noSuchOperation', 'not <operationId>/<kebab-slug>', '1 to 69 characters', 'which requires nothing of a deployment (informative)', 'no-such-requirement, which is no requirement', 'proves no requirement and names no reference choice', 'declare needs.driver']) {
      expect(problems).toContain(expected);
    }
  });
});
