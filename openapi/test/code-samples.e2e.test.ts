import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, ROOT, type Node } from './bundle.js';
import { operationSamples, SAMPLE_ENV, type SampleCall } from '../../scripts/code-samples.js';
import { startServer, givenAccount, type TestServer } from '../../server/test/support.js';
import { OPERATIONS, type OperationId } from '../../client/index.js';

/**
 * The code samples the bundle carries (`x-codeSamples`, made at bundle time by
 * scripts/code-samples.ts) are the ones the document's examples make; every curl sample runs, as
 * written (with the base URL the serving server puts in it), against the reference server and gets
 * the operation's documented success; every TypeScript sample type-checks against the client,
 * `@credential-vault/client`, and handles each of its operation's codes.
 */

const doc = loadBundle();
const ops = operationSamples(structuredClone(doc));
const sampleOf = (operationId: string, label: string) => {
  const op = ops.find((o) => o.call.operationId === operationId)!;
  return (op.operation['x-codeSamples'] as { label: string; source: string }[]).find((s) => s.label === label)!.source;
};

describe('the samples in the bundle', () => {
  it('when the bundle is read, then every operation carries a curl and a TypeScript sample, exactly as its examples make them', () => {
    expect(ops.length).toBeGreaterThan(0);
    for (const { operation, samples } of ops) {
      expect(operation['x-codeSamples'], operation.operationId).toEqual(samples);
      expect(samples.map((s) => s.label)).toEqual(['TypeScript', 'curl']);
    }
  });
});

describe('the curl samples, run against the reference server', () => {
  const admin = 'adm_code_samples';
  let t: TestServer;
  let dir = '';
  let key = '';
  let accountId = '';
  /** What earlier samples answered, by operationId. */
  const answers = new Map<string, any>();

  beforeAll(async () => {
    t = await startServer({ config: { adminToken: admin } });
    ({ key, accountId } = await givenAccount(t, { plan: 'Plus', signup: true }));
    dir = mkdtempSync(join(tmpdir(), 'vault-curl-'));
    // curl reads $CURL_HOME/.curlrc: the status is printed after the body, and the samples run unchanged.
    writeFileSync(join(dir, '.curlrc'), 'write-out = "\\n%{http_code}"\n');
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function fixture(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${t.base}/_fixtures${path}`, {
      method,
      headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.ok, `${method} ${path}`).toBe(true);
    return res.json();
  }

  async function signupLink(website: string): Promise<{ requestId: string; token: string }> {
    const res = await fetch(`${t.base}/v1/logins/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ website, email: 'jane@example.com' }),
    });
    const { requestId } = (await res.json()) as { requestId: string };
    const { links } = await fixture('GET', `/accounts/${accountId}/links`);
    return { requestId, token: links.find((l: { requestId?: string }) => l.requestId === requestId).token };
  }

  /**
   * The state each sample needs, made as its users would have it: the real value that stands for
   * the example's path value, from an earlier sample's answer or from the account holder's side.
   */
  const prepare: Record<string, (call: SampleCall) => Promise<string | undefined>> = {
    getRecipeSubmission: async () => answers.get('submitRecipe').id,
    getSignupRequest: async () => answers.get('fileSignupRequest').requestId,
    // The login the next two samples change is the one fileSignupRequest's sample asked for,
    // approved by the account holder: the example's label is its label on a fresh account.
    setLoginUsername: async () => {
      const { links } = await fixture('GET', `/accounts/${accountId}/links`);
      const link = links.find((l: { requestId?: string }) => l.requestId === answers.get('fileSignupRequest').requestId);
      const decided = await fetch(`${t.base}/v1/signup-requests/${link.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"decision":"approve"}' });
      expect(decided.status).toBe(200);
      return undefined;
    },
    getSignupApproval: async () => (await signupLink('example.net')).token,
    decideSignupApproval: async () => (await signupLink('example.org')).token,
    getPurchaseApproval: async () => (await fixture('POST', `/accounts/${accountId}/purchase-approvals`, {})).token,
    decidePurchaseApproval: async () => (await fixture('POST', `/accounts/${accountId}/purchase-approvals`, {})).token,
    getCvvRequest: async () => (await fixture('POST', `/accounts/${accountId}/cvv-requests`)).token,
    getChallengeRequest: async () => (await fixture('POST', `/accounts/${accountId}/challenge-requests`)).token,
  };

  /** The status a sample must get: the documented success, or the one answer of an operation without one. */
  function expectedStatus(operation: Node): number {
    const statuses = Object.keys(operation.responses);
    const own = statuses.filter((s) => !['408', '431'].includes(s));
    return Number(statuses.find((s) => s.startsWith('2')) ?? own[0]);
  }

  it.each(ops.map((o) => [o.call.operationId, o] as const))('when the curl sample of %s runs as written, then it gets the documented answer', async (_id, op) => {
    let source = sampleOf(op.call.operationId, 'curl');
    if (!op.call.ownServer) {
      // The docs a server serves name its own origin in place of the document's default (server/http/docs.ts): so does this one.
      expect(source.split(`export ${SAMPLE_ENV.apiUrl}=${op.call.baseUrl}\n`), 'the sample sets the base URL once, first').toEqual(['', expect.any(String)]);
      source = source.replace(op.call.baseUrl, t.base);
    }
    const real = await prepare[op.call.operationId]?.(op.call);
    const example = Object.values(op.call.pathValues)[0];
    if (real !== undefined && example !== undefined) {
      // The only change to the sample: the example's id becomes one that exists on this server.
      expect(source.split(encodeURIComponent(example)).length, 'the example id appears once').toBe(2);
      source = source.replace(encodeURIComponent(example), encodeURIComponent(real));
    }
    // Asynchronously: the server answers from this process, so nothing here may block it.
    const run = await promisify(execFile)('sh', ['-c', source], {
      env: { ...process.env, CURL_HOME: dir, [SAMPLE_ENV.apiUrl]: 'http://127.0.0.1:9/unused', [SAMPLE_ENV.apiKey]: key, [SAMPLE_ENV.proxyOrigin]: t.base },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.stderr).toBe('');
    const cut = run.stdout.lastIndexOf('\n');
    const [body, status] = [run.stdout.slice(0, cut), Number(run.stdout.slice(cut + 1))];
    expect(status, body).toBe(expectedStatus(op.operation));
    answers.set(op.call.operationId, JSON.parse(body));
  });
});

describe('the TypeScript samples, type-checked against the client', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vault-ts-samples-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The diagnostics of programs importing `@credential-vault/client`, which resolves to the client's sources. */
  function typeCheck(files: Record<string, string>): string[] {
    const names = Object.entries(files).map(([name, text]) => {
      const file = join(dir, `${name}.mts`);
      writeFileSync(file, text);
      return file;
    });
    const program = ts.createProgram(names, {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      paths: { '@credential-vault/client': [join(ROOT, 'client', 'index.ts')] },
    });
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${d.file.fileName.replace(`${dir}/`, '')}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
  }

  it('when every TypeScript sample is compiled with the client, then none has an error', () => {
    const files = Object.fromEntries(ops.map((o) => [o.call.operationId, sampleOf(o.call.operationId, 'TypeScript')]));
    expect(typeCheck(files)).toEqual([]);
  }, 60_000);

  it("when each sample's switch is closed with a never check, then it compiles: the sample names every code of its operation", () => {
    const closed = Object.fromEntries(
      ops.map((o) => {
        const source = sampleOf(o.call.operationId, 'TypeScript');
        const end = source.lastIndexOf('\n  }\n}');
        expect(end, o.call.operationId).toBeGreaterThan(0);
        return [o.call.operationId, `${source.slice(0, end)}\n    default:\n      e.code satisfies never;${source.slice(end)}`];
      }),
    );
    expect(typeCheck(closed)).toEqual([]);
    for (const o of ops) {
      const cases = [...sampleOf(o.call.operationId, 'TypeScript').matchAll(/case '([a-z_]+)':/g)].map((m) => m[1]);
      const documented = new Set(Object.values(OPERATIONS[o.call.operationId as OperationId].errors).flat());
      expect(new Set(cases), o.call.operationId).toEqual(documented);
    }
  }, 60_000);

  it('when a sample misspells a code or drops one from a closed switch, then it does not compile', () => {
    const sample = sampleOf('getTokenCatalog', 'TypeScript');
    const misspelt = sample.replace("case 'rate_limited':", "case 'rate_limitd':");
    expect(misspelt).not.toBe(sample);
    expect(typeCheck({ misspelt }).join('\n')).toMatch(/rate_limitd/);
    const end = sample.lastIndexOf('\n  }\n}');
    const dropped = `${sample.slice(0, end)}\n    default:\n      e.code satisfies never;${sample.slice(end)}`.replace("    case 'invalid_api_key': // 401\n", '');
    expect(typeCheck({ dropped }).join('\n')).toMatch(/invalid_api_key/);
  }, 60_000);

  it('when a sample names a parameter the operation does not have, then it does not compile', () => {
    const wrong = sampleOf('getTokenCatalog', 'TypeScript').replace(/\burl: /, 'uri: ');
    expect(wrong).not.toBe(sampleOf('getTokenCatalog', 'TypeScript'));
    expect(typeCheck({ wrong }).join('\n')).toMatch(/uri/);
  }, 60_000);
});
