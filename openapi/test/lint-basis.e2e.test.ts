import { beforeAll, describe, expect, it } from 'vitest';
import { lintText, type LintReport } from '../../scripts/redocly.js';

/**
 * vault/constraint-basis: every response constraint that could over-state the specification says
 * where it is written (x-basis), and no mark names a constraint its node does not have. One small
 * document marks everything; the other leaves out one mark of each kind and spoils a few.
 */

const document = (responses: string, components: string) => `openapi: 3.1.0
info:
  title: Lint rule fixture
  version: 1.0.0
  license: {name: Apache 2.0, url: https://www.apache.org/licenses/LICENSE-2.0.html}
servers:
  - url: https://vault.test
security: []
tags:
  - name: Things
    description: Things.
paths:
  /v1/things:
    post:
      operationId: createThing
      summary: Create a thing
      description: Creates a thing.
      tags: [Things]
      x-spec-sections: ['4.1']
      requestBody:
        content:
          application/json:
            schema: {type: object, required: [name], additionalProperties: false, properties: {name: {type: string}}}
            examples:
              thing: {value: {name: a}}
      responses:
${responses}
components:
${components}`;

const MARKED = document(
  `        '202':
          description: Filed.
          x-basis:
            content/text~1html: {reference: The specification makes every body JSON; a page for people is our own.}
          headers:
            Vary: {$ref: '#/components/headers/Vary'}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Filed'}
              examples:
                filed: {value: {id: t1, kind: a}}
            text/html:
              schema: {type: string}
              examples:
                page: {value: '<p>filed</p>'}
        '400':
          description: Refused.
          content:
            application/json:
              schema:
                allOf:
                  - $ref: '#/components/schemas/Error'
                  - properties: {code: {const: bad_request}}
              examples:
                bad_request: {value: {code: bad_request, error: Not JSON.}}`,
  `  headers:
    Vary:
      schema: {type: string, const: Accept}
      example: Accept
      x-basis: {schema/const: {reference: The specification does not name this header at all.}}
  schemas:
    Error:
      type: object
      required: [code, error]
      x-basis: {required/code: {spec: errors-have-code-and-error}, required/error: {spec: errors-have-code-and-error}}
      properties: {code: {type: string}, error: {type: string}}
    Filed:
      type: object
      additionalProperties: false
      required: [id, kind]
      x-basis:
        required/id: {spec: filing-answer-202}
        required/kind: {reference: The specification gives no name for what kind of thing was filed.}
        additionalProperties: {reference: No sentence of the specification closes this object.}
        properties/tags: {reference: The specification does not show what a tag holds.}
      properties:
        id: {type: string}
        kind: {type: string}
        tags:
          type: array
          items: {type: object, required: [name], properties: {name: {type: string}}}`,
);

const UNMARKED = document(
  `        '202':
          description: Filed.
          headers:
            Vary: {$ref: '#/components/headers/Vary'}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Filed'}
              examples:
                filed: {value: {id: t1, kind: a}}
            text/html:
              schema: {type: string}
              examples:
                page: {value: '<p>filed</p>'}`,
  `  headers:
    Vary:
      required: true
      schema: {type: string, const: Accept}
      example: Accept
      x-basis: {schema/const: {spec: '4.6'}}
  schemas:
    Filed:
      type: object
      additionalProperties: false
      required: [id, kind]
      x-basis:
        required/id: {spec: filing-answer-202, reference: Both at once.}
        required/name: {reference: A member this schema does not require.}
      properties:
        id: {type: string}
        kind: {type: string}`,
);

describe('the lint rule vault/constraint-basis', () => {
  let marked: LintReport;
  let unmarked: LintReport;

  beforeAll(() => {
    marked = lintText(MARKED);
    unmarked = lintText(UNMARKED);
  });

  const messages = (report: LintReport) => report.problems.filter((p) => p.ruleId === 'vault/constraint-basis').map((p) => p.message);

  it('when every response constraint has a basis, then nothing is reported, whatever the request schema requires', () => {
    expect(marked.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('when constraints lack a basis or marks are spoiled, then each is reported once', () => {
    const found = messages(unmarked);
    expect(found.filter((m) => m.includes('`required/kind` of a response schema has no basis'))).toHaveLength(1);
    expect(found.filter((m) => m.includes('`additionalProperties` of a response schema has no basis'))).toHaveLength(1);
    expect(found.filter((m) => m.includes('`required` of the Vary header has no basis'))).toHaveLength(1);
    expect(found.filter((m) => m.includes('text/html answer beside the JSON has no basis'))).toHaveLength(1);
    expect(found.filter((m) => m.includes('`required/id` names more or less than one basis'))).toHaveLength(1);
    expect(found.filter((m) => m.includes('`required/name`, which this node does not have'))).toHaveLength(1);
    expect(found.filter((m) => m.includes('`schema/const` gives spec without naming requirements of the catalogue by id'))).toHaveLength(1);
    expect(found).toHaveLength(7);
  });
});
