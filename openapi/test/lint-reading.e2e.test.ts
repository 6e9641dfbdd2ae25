import { beforeAll, describe, expect, it } from 'vitest';
import { lintText, type LintReport } from '../../scripts/redocly.js';

/**
 * The lint rules for what the rendered reference shows a reader (openapi/lint/plugin.js): the
 * integrator's voice, plain text in the servers box, no placeholder links, and a page for people
 * only beside an error's JSON. Two small documents: one breaks each rule once, one keeps them all.
 */

function document(parts: { contact: string; server: string; variable: string; operation: string; schema: string; errorContent: string }): string {
  return `openapi: 3.1.0
info:
  title: Reading fixture
  version: 1.0.0
  license: {name: Apache 2.0, url: https://www.apache.org/licenses/LICENSE-2.0.html}
  contact: {name: Maintainers, url: ${JSON.stringify(parts.contact)}}
servers:
  - url: '{base_url}'
    description: ${JSON.stringify(parts.server)}
    variables:
      base_url:
        default: http://127.0.0.1:8080
        description: ${JSON.stringify(parts.variable)}
security: []
tags:
  - name: Things
    description: Things.
paths:
  /v1/things/{id}:
    get:
      operationId: getThing
      summary: Read a thing
      description: ${JSON.stringify(parts.operation)}
      tags: [Things]
      x-spec-sections: ['4.1']
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}, example: t1}
      responses:
        '200':
          description: The thing.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
              examples:
                thing: {value: {}}
        '404':
          description: No such thing.
          x-basis: {content/text~1html: {reference: The specification makes every body JSON; a page for people is our own.}}
          content:
${parts.errorContent}
components:
  schemas:
    Error:
      type: object
      required: [code, error]
      x-basis: {required/code: {spec: errors-have-code-and-error}, required/error: {spec: errors-have-code-and-error}}
      properties:
        code: {type: string}
        error: {type: string}
    Thing:
      type: object
      description: ${JSON.stringify(parts.schema)}
`;
}

const JSON_ERROR = `            application/json:
              schema:
                allOf:
                  - $ref: '#/components/schemas/Error'
                  - properties: {code: {const: not_found}}
              examples:
                not_found: {value: {code: not_found, error: No such thing.}}
`;
const PAGE = `            text/html:
              schema: {type: string}
              examples:
                page: {value: '<p>No such thing.</p>'}
`;

const CONFORMING = document({
  contact: 'https://www.apache.org/',
  server: 'The API. A local deployment is reached over plain HTTP.',
  variable: 'Base address of the deployment, no trailing slash.',
  operation: 'Reads a thing. Other members may be present; they are not specified.',
  schema: 'A thing. Other members may be present; do not rely on them.',
  errorContent: JSON_ERROR + PAGE,
});

const VIOLATING = document({
  contact: 'https://vault.test/docs',
  server: 'The API. Local development uses `http://`.',
  variable: 'The *base* address.',
  operation: "Reads a thing (this document's choice).",
  schema: 'A thing. Further members: not shown.',
  errorContent: PAGE,
});


describe('the lint rules for what the reference shows a reader', () => {
  let conforming: LintReport;
  let violating: LintReport;

  beforeAll(() => {
    conforming = lintText(CONFORMING);
    violating = lintText(VIOLATING);
  });

  const found = (ruleId: string) => violating.problems.filter((p) => p.ruleId === ruleId).map((p) => p.location[0]!.pointer);

  it('when every description speaks to the integrator in plain words, then nothing is reported', () => {
    expect(conforming.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  it.each([
    ['vault/integrator-voice', ['#/paths/~1v1~1things~1{id}/get/description', '#/components/schemas/Thing/description']],
    ['vault/plain-server-description', ['#/servers/0/description', '#/servers/0/variables/base_url/description']],
    ['vault/no-placeholder-links', ['#/info/contact/url']],
    ['vault/error-response-schema', ['#/paths/~1v1~1things~1{id}/get/responses/404/content/text~1html']],
  ])('when a document breaks %s, then it reports exactly there', (ruleId, pointers) => {
    expect(found(ruleId).sort()).toEqual([...pointers].sort());
  });
});
