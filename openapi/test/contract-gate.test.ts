import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../scripts/contract/change.js';
import { renderChangelog } from '../../scripts/contract/changelog.js';
import type { Node } from '../../scripts/contract/document.js';
import { checkContract, formatReport, type GateResult } from '../../scripts/contract/gate.js';
import { MIN_NOTICE_DAYS } from '../../scripts/contract/policy.js';
import { recordRelease } from '../../scripts/contract/record.js';
import { loadRelease, recordProblems } from '../../scripts/contract/released.js';
import { runGate } from '../../scripts/contract/run.js';
import { ROOT } from '../../scripts/redocly.js';
import { addDays, bump, codeNarrowing, copy, latest, MAJOR, NEXT_MINOR, NEXT_PATCH, operation, parameter, released, RELEASED, requestSchema, resolve, responseSchema, TODAY } from './released-copy.js';

/**
 * The contract gate (`npm run check:breaking`): known breaking changes applied one at a time to
 * a copy of the last released document fail it, each with a message naming the change; known
 * safe changes pass; the versioning and deprecation policy of openapi/README.md decides the rest.
 * The commands run as processes, the deprecation lint rule and the docs' link to the changelog are
 * in contract-gate.e2e.test.ts.
 */

function gate(change: (doc: Node) => void, today = TODAY): GateResult {
  const doc = copy();
  change(doc);
  return checkContract(released, doc, today);
}

const report = (result: GateResult) => formatReport(result, `openapi/released/${latest}.json`);
const summary = (changes: Change[]) => changes.map((c) => `${c.breaking ? `breaking(${c.audience})` : 'safe'} ${c.kind}: ${c.message}`);

describe('the contract gate against the released document', () => {
  it('when the released copy is compared with itself, then nothing changes and the gate passes', () => {
    const result = checkContract(released, copy(), TODAY);
    expect(result.changes).toEqual([]);
    expect(result.failures).toEqual([]);
  });

  it('when the release record is read, then it is consistent and CHANGELOG.md is generated from it', () => {
    expect(recordProblems(RELEASED)).toEqual([]);
    expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toBe(renderChangelog(RELEASED));
  });

  // Each: the change, the kind and audience the gate must give it, and what its message says.
  const breaking: Array<[string, (doc: Node) => void, Change['kind'], Change['audience'], string]> = [
    ['a removed path', (d) => delete d.paths['/v1/logins/username'], 'operation-removed', 'client', 'POST /v1/logins/username (setLoginUsername): operation removed'],
    ['a removed operation', (d) => delete d.paths['/v1/recipes/submissions/{id}'].get, 'operation-removed', 'client', '(getRecipeSubmission): operation removed'],
    [
      'a removed response member',
      (d) => {
        const s = responseSchema(d, 'fileSignupRequest', '202');
        delete s.properties.requestId;
        s.required = s.required.filter((m: string) => m !== 'requestId');
      },
      'member-removed',
      'client',
      'response 202, member `requestId`: removed',
    ],
    ['a removed request member', (d) => delete requestSchema(d, 'fileSignupRequest').properties.username, 'member-removed', 'client', 'request body, member `username`: removed'],
    ['a removed status', (d) => delete operation(d, 'getRecipeSubmission').responses['404'], 'response-removed', 'both', 'response 404 removed'],
    ['a type changed', (d) => (responseSchema(d, 'fileSignupRequest', '202').properties.requestId = { type: 'integer' }), 'type-changed', 'both', 'member `requestId`: type changes from string to integer'],
    [
      'a new required request member',
      (d) => {
        const s = requestSchema(d, 'fileSignupRequest');
        s.properties.locale = { type: 'string' };
        s.required = [...s.required, 'locale'];
      },
      'member-added',
      'client',
      'request body, member `locale`: added, and required',
    ],
    [
      'a new required parameter',
      (d) => operation(d, 'getTokenCatalog').parameters.push({ name: 'locale', in: 'query', required: true, schema: { type: 'string' } }),
      'parameter-added',
      'client',
      'parameter `locale` (query) added, and required',
    ],
    ['an optional parameter made required', (d) => (parameter(d, 'getTokenCatalog', 'url').required = true), 'parameter-required', 'client', 'parameter `url` (query) now required'],
    [
      'an enum narrowed in a request',
      (d) => {
        const decision = resolve(d, requestSchema(d, 'decideSignupApproval').properties.decision);
        decision.enum = decision.enum.slice(0, -1);
      },
      'enum-narrowed',
      'client',
      'request body, member `decision`: value `deny` removed',
    ],
    ['an enum widened in a response', (d) => responseSchema(d, 'fileSignupRequest', '202').properties.status.enum.push('queued'), 'enum-widened', 'client', 'member `status`: value `queued` added'],
    [
      'a tighter constraint on a request',
      (d) => (requestSchema(d, 'fileSignupRequest').properties.email.maxLength -= 10),
      'constraint-tightened',
      'client',
      'request body, member `email`: `maxLength` changes from 254 to 244',
    ],
    [
      'an error code added to an operation',
      (d) => {
        const code = codeNarrowing(d, 'getRecipeSubmission', '404');
        code.enum = [code.const, 'rate_limited'];
        delete code.const;
      },
      'error-code-added',
      'client',
      'response 404: error code `rate_limited` added',
    ],
    [
      'an error code removed from an operation',
      (d) => {
        const code = codeNarrowing(d, 'fileSignupRequest', '400');
        code.enum = code.enum.filter((c: string) => c !== 'invalid_policy');
      },
      'error-code-removed',
      'server',
      'response 400: error code `invalid_policy` removed',
    ],
    ['a header removed', (d) => delete resolve(d, operation(d, 'getTokenCatalog').responses['429']).headers['Retry-After'], 'header-removed', 'client', 'response 429 header `Retry-After` removed'],
    ['a credential now asked for', (d) => (operation(d, 'getRecipes').security = [{ ApiKey: [] }]), 'security-changed', 'client', 'security changes from none to ApiKey'],
    [
      'a security scheme changed',
      (d) => (d.components.securitySchemes.ApiKey = { type: 'apiKey', in: 'header', name: 'X-Api-Key' }),
      'security-scheme-changed',
      'both',
      'security scheme `ApiKey` changes how a credential is sent',
    ],
  ];

  it.each(breaking)('when the document gets %s, then the gate fails with a message naming it', (_, change, kind, audience, message) => {
    const result = gate(change);
    const found = result.changes.find((c) => c.kind === kind && c.message.includes(message));
    expect(found, summary(result.changes).join('\n')).toMatchObject({ breaking: true, audience });
    expect(result.failures.length).toBeGreaterThan(0);
    const text = report(result);
    expect(text).toContain(message);
    expect(text).toContain('FAIL');
  });

  const safe: Array<[string, (doc: Node) => void, Change['kind']]> = [
    ['a new optional request member', (d) => (requestSchema(d, 'fileSignupRequest').properties.locale = { type: 'string' }), 'member-added'],
    ['a new optional response member', (d) => (responseSchema(d, 'fileSignupRequest', '202').properties.hint = { type: 'string' }), 'member-added'],
    [
      'a new operation',
      (d) => {
        d.paths['/v1/things'] = { get: { ...structuredClone(operation(d, 'getProxyHealth')), operationId: 'getThings', summary: 'Read the things' } };
      },
      'operation-added',
    ],
    [
      'a new example',
      (d) => {
        const media = resolve(d, operation(d, 'getRecipeSubmission').responses['404']).content['application/json'];
        media.examples.another = { summary: 'Another unknown id', value: { code: 'not_found', error: 'No such submission.' } };
      },
      'docs-changed',
    ],
    ['a longer description', (d) => (operation(d, 'getTokenCatalog').description += '\nOne more sentence for integrators.\n'), 'docs-changed'],
  ];

  it.each(safe)('when the document gets %s, then the gate passes and lists it as not breaking', (_, change, kind) => {
    const result = gate(change);
    expect(result.failures).toEqual([]);
    expect(summary(result.changes)).toEqual([expect.stringMatching(new RegExp(`^safe ${kind}: `))]);
    expect(report(result)).toMatch(/^ok: 1 change\(s\) since /m);
  });
});

describe('error codes that come with a new optional parameter', () => {
  // A header the released document does not have, which alone can bring `busy_key` on a 409.
  const header = (codes?: Node) => ({ name: 'X-Once', in: 'header', required: false, schema: { type: 'string' }, ...(codes ? { 'x-error-codes': codes } : {}) });
  const withCode = (d: Node, codes?: Node) => {
    const op = operation(d, 'setLoginUsername');
    op.parameters = [...(op.parameters ?? []), header(codes)];
    const code = codeNarrowing(d, 'setLoginUsername', '409');
    code.enum = [...(code.enum ?? [code.const]), 'busy_key'];
    delete code.const;
    d.components.schemas.ApiErrorCode.enum.push('busy_key');
    return bump(d, NEXT_MINOR);
  };

  it('when an operation gains an optional parameter and a code its x-error-codes lists, then neither breaks a client', () => {
    const result = gate((d) => withCode(d, { '409': ['busy_key'] }));
    expect(result.failures).toEqual([]);
    expect(summary(result.changes)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^safe parameter-added: .*`X-Once` \(header\) added \(optional\)/),
        expect.stringMatching(/^safe error-code-added: .*response 409: error code `busy_key` added, answered only to a request with a parameter new to this operation/),
        expect.stringMatching(/^safe enum-widened: .*published schema `ApiErrorCode`: value `busy_key` added, answered only to requests/),
      ]),
    );
  });

  it('when the parameter does not list the code, or lists it for another status, then the code breaks clients', () => {
    for (const codes of [undefined, { '422': ['busy_key'] }]) {
      const result = gate((d) => withCode(d, codes));
      const kinds = result.changes.filter((c) => c.breaking).map((c) => `${c.kind} ${c.audience}`);
      expect(kinds).toEqual(expect.arrayContaining(['error-code-added client', 'enum-widened client']));
      expect(result.failures).toEqual([expect.stringContaining('need info.version 2.0.0 or later')]);
    }
  });

  it('when the released operation already took the parameter, then a code added to it breaks clients', () => {
    const before = copy();
    const op = operation(before, 'setLoginUsername');
    op.parameters = [...(op.parameters ?? []), header({ '409': ['busy_key'] })];
    const result = checkContract(before, withCode(copy(), { '409': ['busy_key'] }), TODAY);
    expect(result.changes.find((c) => c.kind === 'error-code-added')).toMatchObject({ breaking: true, audience: 'client' });
    expect(result.failures).toEqual([expect.stringContaining('need info.version 2.0.0 or later')]);
  });
});

describe('error codes that come as a 5xx answer', () => {
  // An error body whose code is `disk_gone`, the shape the document gives its error answers.
  const answer = (code: string) => ({
    description: 'Cannot store.',
    content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', required: ['code'], properties: { code: { const: code } } }] } } },
  });
  const addAnswer = (d: Node, operationId: string, status: string) => {
    operation(d, operationId).responses[status] = answer('disk_gone');
    if (!d.components.schemas.ApiErrorCode.enum.includes('disk_gone')) d.components.schemas.ApiErrorCode.enum.push('disk_gone');
    return d;
  };

  it('when operations gain a 503 with a new code, then neither the answer nor the published code breaks a client, and the version may stay until the release', () => {
    const result = gate((d) => addAnswer(addAnswer(d, 'setLoginUsername', '503'), 'getTokenCatalog', '503'));
    expect(result.failures).toEqual([]);
    expect(result.changes.filter((c) => c.breaking)).toEqual([]);
    expect(summary(result.changes)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^safe response-added: .*setLoginUsername.*response 503 added/),
        expect.stringMatching(/^safe error-code-added: .*setLoginUsername.*response 503: error code `disk_gone` added, a 5xx answer, which every client already handles/),
        expect.stringMatching(/^safe error-code-added: .*getTokenCatalog.*response 503: error code `disk_gone` added, a 5xx answer/),
        expect.stringMatching(/^safe enum-widened: .*published schema `ApiErrorCode`: value `disk_gone` added, answered only as 5xx answers$/),
      ]),
    );
    expect(report(result)).toMatch(new RegExp(`the next release is ${NEXT_MINOR.replace(/\./g, '\\.')} or later`));
  });

  it('when the same new code also comes as a 4xx answer, then that answer and the published code break clients', () => {
    const result = gate((d) => addAnswer(addAnswer(d, 'setLoginUsername', '503'), 'getTokenCatalog', '409'));
    const breaking = result.changes.filter((c) => c.breaking).map((c) => `${c.operationId} ${c.kind} ${c.audience}`);
    expect(breaking).toEqual(['getTokenCatalog error-code-added client', 'null enum-widened client']);
    expect(result.failures).toEqual([expect.stringContaining(`need info.version ${MAJOR + 1}.0.0 or later`)]);
  });
});

describe('the versioning policy', () => {
  const removeCode = (d: Node) => {
    const code = codeNarrowing(d, 'fileSignupRequest', '400');
    code.enum = code.enum.filter((c: string) => c !== 'invalid_policy');
  };
  const removeMember = (d: Node) => {
    const s = responseSchema(d, 'fileSignupRequest', '202');
    delete s.properties.requestId;
    s.required = s.required.filter((m: string) => m !== 'requestId');
  };
  const moveTo = (d: Node, major: number) => {
    d.paths = Object.fromEntries(Object.entries(d.paths).map(([path, item]) => [path.replace(/^\/v1\//, `/v${major}/`), item]));
  };

  it('when a change breaks only servers and the version stays, then the gate asks for the next minor version', () => {
    const result = gate(removeCode);
    expect(result.failures).toEqual([expect.stringContaining(`breaking changes for servers since ${latest} need info.version ${NEXT_MINOR} or later`)]);
  });

  it('when a change breaks only servers and the minor version is bumped, then the gate passes', () => {
    expect(gate((d) => removeCode(bump(d, NEXT_MINOR))).failures).toEqual([]);
  });

  it('when a change breaks clients and only the minor version is bumped, then the gate asks for 2.0.0 under /v2', () => {
    const result = gate((d) => removeMember(bump(d, NEXT_MINOR)));
    expect(result.failures).toEqual([expect.stringContaining('need info.version 2.0.0 or later, with every versioned path under /v2')]);
  });

  it('when the major version is bumped but the paths still carry /v1, then the gate fails', () => {
    const result = gate((d) => removeMember(bump(d, '2.0.0')));
    expect(result.failures).toEqual([expect.stringContaining('info.version 2.0.0 is major 2, but')]);
  });

  it('when a change breaks clients in 2.0.0 under /v2, then the gate passes and each operation pairs with its /v1 self', () => {
    const result = gate((d) => {
      removeMember(bump(d, '2.0.0'));
      moveTo(d, 2);
    });
    expect(result.failures).toEqual([]);
    expect(result.changes.filter((c) => c.kind === 'operation-removed' || c.kind === 'operation-added')).toEqual([]);
    expect(result.changes.some((c) => c.kind === 'member-removed' && c.path === '/v2/logins/requests')).toBe(true);
  });

  it('when the version goes down, then the gate fails', () => {
    const result = checkContract(bump(copy(), NEXT_MINOR), copy(), TODAY);
    expect(result.failures).toEqual([expect.stringContaining(`info.version ${latest} is lower than the released ${NEXT_MINOR}`)]);
  });

  it('when info.version is not MAJOR.MINOR.PATCH, then the gate fails', () => {
    expect(gate((d) => bump(d, '1.1')).failures).toEqual([expect.stringContaining('MAJOR.MINOR.PATCH')]);
  });
});

describe('the deprecation policy', () => {
  const retired = operation(released, 'createLogin');
  const sunset: string = retired['x-sunset'];
  const removeRetired = (d: Node) => delete d.paths['/v1/logins'].post;

  it('when the released document is read, then its one deprecated operation carries a sunset date and a note naming it', () => {
    expect(retired.deprecated).toBe(true);
    expect(sunset).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(retired.description).toMatch(new RegExp(`Deprecated.*${sunset}`, 's'));
  });

  it('when an operation that was never deprecated is removed, even in a new major version, then the gate refuses it', () => {
    const result = gate((d) => {
      bump(d, '2.0.0');
      delete d.paths['/v1/recipes/submissions/{id}'];
      d.paths = Object.fromEntries(Object.entries(d.paths).map(([path, item]) => [path.replace(/^\/v1\//, '/v2/'), item]));
    });
    expect(result.failures).toEqual([expect.stringContaining('`getRecipeSubmission` (GET /v1/recipes/submissions/{id}) is removed but was never deprecated')]);
  });

  it('when a deprecated operation is removed before its sunset date, then the gate refuses it and names the date', () => {
    const result = gate((d) => removeRetired(bump(d, NEXT_MINOR)), addDays(sunset, -1));
    expect(result.failures).toContainEqual(expect.stringContaining(`is removed before its sunset date ${sunset}`));
  });

  it('when a deprecated operation is removed on its sunset date in a new minor version, then the gate passes', () => {
    const result = gate((d) => removeRetired(bump(d, NEXT_MINOR)), sunset);
    expect(result.failures).toEqual([]);
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'operation-removed', operationId: 'createLogin' }));
  });

  it('when a deprecated operation is removed after its sunset date without a new version, then the gate asks for one', () => {
    const result = gate(removeRetired, addDays(sunset, 1));
    expect(result.failures).toEqual([expect.stringContaining(`need info.version ${NEXT_MINOR} or later`)]);
  });

  const deprecate = (date: string) => (d: Node) => {
    const op = operation(d, 'getRecipeSubmission');
    op.deprecated = true;
    op['x-sunset'] = date;
    op.description += `\n**Deprecated**, sunset ${date}.\n`;
  };

  it(`when an operation is newly deprecated with its sunset less than ${MIN_NOTICE_DAYS} days away, then the gate refuses it`, () => {
    const result = gate(deprecate(addDays(TODAY, MIN_NOTICE_DAYS - 1)));
    expect(result.failures).toEqual([expect.stringContaining(`the sunset is ${addDays(TODAY, MIN_NOTICE_DAYS)} or later`)]);
  });

  it(`when an operation is newly deprecated with its sunset ${MIN_NOTICE_DAYS} days away, then the gate passes and lists the deprecation`, () => {
    const result = gate(deprecate(addDays(TODAY, MIN_NOTICE_DAYS)));
    expect(result.failures).toEqual([]);
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'operation-deprecated', breaking: false, operationId: 'getRecipeSubmission' }));
  });

  it('when a sunset date moves earlier, then the change breaks clients', () => {
    const result = gate((d) => (operation(d, 'createLogin')['x-sunset'] = addDays(sunset, -30)));
    expect(result.changes).toContainEqual(expect.objectContaining({ kind: 'sunset-changed', breaking: true, audience: 'client' }));
    expect(result.failures.length).toBeGreaterThan(0);
  });
});

describe('npm run check:breaking and npm run release:contract, on copies of the record', () => {
  let dir = '';
  const files = () => ({
    current: join(dir, 'current.json'),
    releasedDir: join(dir, 'released'),
    changelog: join(dir, 'CHANGELOG.md'),
    out: join(dir, 'diff.json'),
    today: TODAY,
    root: dir,
  });
  const writeCurrent = (doc: Node) => writeFileSync(join(dir, 'current.json'), JSON.stringify(doc));

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vault-gate-'));
    cpSync(RELEASED, join(dir, 'released'), { recursive: true });
    cpSync(join(ROOT, 'CHANGELOG.md'), join(dir, 'CHANGELOG.md'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('when the changelog was edited by hand, then the gate fails', () => {
    writeCurrent(copy());
    writeFileSync(join(dir, 'CHANGELOG.md'), `${readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')}\nA line written by hand.\n`);
    const run = runGate(files());
    expect(run.ok).toBe(false);
    expect(run.report).toContain('CHANGELOG.md differs from the one generated from released');
    cpSync(join(ROOT, 'CHANGELOG.md'), join(dir, 'CHANGELOG.md'));
    expect(runGate(files())).toMatchObject({ ok: true });
  });

  it('when the released version is recorded again, then only --replace re-records it', () => {
    writeCurrent(copy());
    const again = recordRelease({ ...files(), replace: false });
    expect(again.ok).toBe(false);
    expect(again.report).toContain(`${latest} is already released`);
    expect(again.report).toContain('--replace');
    const doc = copy();
    doc.info.description += '\nReworded before anyone read it.\n';
    writeCurrent(doc);
    expect(recordRelease({ ...files(), replace: true })).toMatchObject({ ok: true });
    expect(loadRelease(join(dir, 'released'), latest).info.description).toContain('Reworded before anyone read it.');
    expect(runGate(files())).toMatchObject({ ok: true });
  });

  it('when the bump is below what the changes need, then the release is refused', () => {
    const doc = bump(copy(), NEXT_PATCH);
    requestSchema(doc, 'fileSignupRequest').properties.locale = { type: 'string' };
    writeCurrent(doc);
    const run = recordRelease({ ...files(), replace: false });
    expect(run.ok).toBe(false);
    expect(run.report).toContain(`need version ${NEXT_MINOR} or later (it is ${NEXT_PATCH})`);
  });

  it('when a new minor version is released, then the changelog gains its section, grouped by operation, above the first', () => {
    const doc = bump(copy(), NEXT_MINOR);
    requestSchema(doc, 'fileSignupRequest').properties.locale = { type: 'string' };
    deprecateForTest(doc);
    const code = codeNarrowing(doc, 'fileSignupRequest', '400');
    code.enum = code.enum.filter((c: string) => c !== 'invalid_policy');
    writeCurrent(doc);
    const run = recordRelease({ ...files(), today: '2026-12-01', replace: false });
    expect(run.ok, run.report).toBe(true);
    const changelog = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8');
    const section = changelog.slice(changelog.indexOf(`## ${NEXT_MINOR} (2026-12-01)`), changelog.indexOf(`## ${latest} (`));
    expect(section).toContain(
      [
        '### Breaking',
        '- `POST /v1/logins/requests` (`fileSignupRequest`)',
        '  - for servers: response 400: error code `invalid_policy` removed',
        '',
        '### Deprecated',
        '- `GET /v1/recipes/submissions/{id}` (`getRecipeSubmission`)',
        `  - deprecated, sunset ${addDays('2026-12-01', MIN_NOTICE_DAYS)}`,
        '',
        '### Added',
        '- `POST /v1/logins/requests` (`fileSignupRequest`)',
        '  - request body, member `locale`: added (optional)',
      ].join('\n'),
    );
    expect(changelog).toContain('First release of the contract');
    expect(runGate({ ...files(), today: '2026-12-01' })).toMatchObject({ ok: true });
  });

  function deprecateForTest(doc: Node) {
    const op = operation(doc, 'getRecipeSubmission');
    const date = addDays('2026-12-01', MIN_NOTICE_DAYS);
    Object.assign(op, { deprecated: true, 'x-sunset': date, description: `${op.description}\n**Deprecated**, sunset ${date}.\n` });
  }
});
