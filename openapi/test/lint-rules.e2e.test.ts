import { beforeAll, describe, expect, it } from 'vitest';
import { lintText, type LintReport } from '../../scripts/redocly.js';

/**
 * Our lint rules (redocly.yaml and openapi/lint/plugin.js) against two small documents: one that
 * breaks each rule once, one that keeps them all. A clean lint of the real document alone cannot
 * tell a working rule from one that never fires.
 */

const HEADER = `openapi: 3.1.0
info:
  title: Lint rule fixture
  version: 1.0.0
  license: {name: Apache 2.0, url: https://www.apache.org/licenses/LICENSE-2.0.html}
servers:
  - url: https://vault.test
security:
  - ApiKey: []
tags:
  - name: Things
    description: Things.
x-limits:
  known-limit: {kind: rate, scope: key, value: 1, window: {type: fixed, seconds: 60}, status: 429, code: rate_limited, retryAfter: true, sections: ['8'], description: One a minute.}
`;

const COMPONENTS = `components:
  securitySchemes:
    ApiKey: {type: http, scheme: bearer}
  headers:
    NoStore:
      required: true
      schema: {type: string, const: no-store}
      example: no-store
      x-basis: {required: {spec: tokens-no-store}, schema/const: {spec: tokens-no-store}}
  schemas:
    Error:
      type: object
      required: [code, error]
      x-basis: {required/code: {spec: errors-have-code-and-error}, required/error: {spec: errors-have-code-and-error}}
      properties:
        code: {type: string}
        error: {type: string}
  responses:
    Unauthorized:
      description: No key.
      headers:
        Cache-Control: {$ref: '#/components/headers/NoStore'}
      content:
        application/json:
          schema:
            allOf:
              - $ref: '#/components/schemas/Error'
              - properties: {code: {const: unauthorized}}
          examples:
            unauthorized: {value: {code: unauthorized, error: No key.}}
`;

const CONFORMING = `${HEADER}paths:
  /v1/things:
    post:
      operationId: createThing
      summary: Create a thing
      description: Creates a thing.
      tags: [Things]
      x-spec-sections: ['4.1', '8']
      x-limits: [known-limit]
      x-validation-error-code: bad_request
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object}
            examples:
              thing: {value: {}}
      responses:
        '201':
          description: Created.
          headers:
            Cache-Control: {$ref: '#/components/headers/NoStore'}
          content:
            application/json:
              schema: {type: object}
              examples:
                created: {value: {}}
        '400':
          description: Bad body.
          headers:
            Cache-Control: {$ref: '#/components/headers/NoStore'}
          content:
            application/json:
              schema:
                allOf:
                  - $ref: '#/components/schemas/Error'
                  - required: [code]
                    x-basis: {required/code: {spec: errors-have-code-and-error}}
                    properties: {code: {enum: [bad_request, invalid_email]}}
              examples:
                bad_request: {value: {code: bad_request, error: Bad body.}}
        '401': {$ref: '#/components/responses/Unauthorized'}
${COMPONENTS}`;

const VIOLATING = `${HEADER}  misshapen-limit: {kind: quota, scope: key, value: 1, plan: Free, window: {type: fixed}, per: day, sections: ['8'], description: Kind and window broken.}
paths:
  /v1/things:
    post:
      operationId: create_thing
      summary: Create a thing
      tags: [Things]
      x-spec-sections: ['4.x', 9]
      x-limits: [known-limit, unknown-limit]
      x-validation-error-code: invalid_website
      x-undocumented-extension: true
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object}
            examples:
              thing: {value: {}}
      responses:
        '201':
          description: Created, but without Cache-Control.
          headers:
            Retry-After:
              schema: {type: integer}
          content:
            application/json:
              schema: {type: object}
        '400':
          description: Bad body.
          headers:
            Cache-Control: {$ref: '#/components/headers/NoStore'}
          content:
            application/json:
              schema:
                allOf:
                  - $ref: '#/components/schemas/Error'
                  - properties: {code: {enum: [bad_request]}}
              examples:
                bad_request: {value: {code: bad_request, error: Bad body.}}
        '404':
          description: Error without narrowing.
          headers:
            Cache-Control: {$ref: '#/components/headers/NoStore'}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
              examples:
                not_found: {value: {code: not_found, error: Gone.}}
        '409':
          description: Narrowed, but not on Error.
          headers:
            Cache-Control: {$ref: '#/components/headers/NoStore'}
          content:
            application/json:
              schema:
                allOf:
                  - {type: object}
                  - properties: {code: {const: conflict}}
              examples:
                conflict: {value: {code: conflict}}
        '422':
          description: No body at all.
          headers:
            Cache-Control: {$ref: '#/components/headers/NoStore'}
${COMPONENTS}`;


describe('the lint rules of redocly.yaml and openapi/lint/plugin.js', () => {
  let conforming: LintReport;
  let violating: LintReport;

  beforeAll(() => {
    conforming = lintText(CONFORMING);
    violating = lintText(VIOLATING);
  });

  const found = (ruleId: string) =>
    violating.problems.filter((p) => p.ruleId === ruleId).map((p) => p.location[0]!.pointer.replace('#/paths/~1v1~1things/post', ''));

  it('when a document keeps every convention, then nothing is reported', () => {
    expect(conforming.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it.each([
    ['rule/operation-id-camel-case', ['/operationId']],
    ['rule/operation-documented', ['']],
    ['rule/response-media-type-examples', ['/responses/201/content/application~1json']],
    ['rule/response-header-example', ['/responses/201/headers/Retry-After']],
    ['vault/spec-sections-format', ['/x-spec-sections/0', '/x-spec-sections/1']],
    ['vault/limit-ids-defined', ['/x-limits/1']],
    ['vault/limit-shape', ['#/x-limits/misshapen-limit', '#/x-limits/misshapen-limit/kind', '#/x-limits/misshapen-limit/window', '#/x-limits/misshapen-limit/per']],
    ['vault/validation-error-code-documented', ['/x-validation-error-code']],
    ['vault/extensions-documented', ['/x-undocumented-extension']],
    ['vault/secured-operation-responses', ['/responses', '/responses/201']],
    [
      'vault/error-response-schema',
      [
        '/responses/404/content/application~1json/schema',
        '/responses/409/content/application~1json/schema/allOf/0',
        '/responses/422',
      ],
    ],
  ])('when a document breaks %s, then it reports exactly there', (ruleId, pointers) => {
    expect(found(ruleId).sort()).toEqual([...pointers].sort());
  });
});
