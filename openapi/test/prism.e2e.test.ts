import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deref, loadBundle, operations, responseExamples, ROOT, type BundledOperation, type Node } from './bundle.js';
import { freePort } from '../../scripts/free-port.js';

/**
 * The Prism mock (`npm run mock`) answers from the document: the first example of the success
 * response by default, any named example with `Prefer: code=..., example=<name>`, and refusals
 * for requests the document forbids. Every expected value below is read from the bundle.
 *
 * Prism runs with `--errors`: without it, a mocked answer that breaks its own schema (an example
 * that drifted, a header without an example sent as the literal `string`) is only reported in an
 * `sl-violations` header nobody reads; with it, Prism answers 500 and these tests fail. It changes
 * nothing for invalid requests, which Prism refuses either way. `npm run mock` leaves it off, so
 * an integrator exploring the mock gets answers rather than 500s.
 */

const doc = loadBundle();
const all = operations(doc);
const API_KEY = 'Bearer mock-test-key';

let prism: ChildProcess | undefined;
let base = '';
let output = '';

async function waitUntilAnswering(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (prism?.exitCode !== null) throw new Error(`prism exited with ${prism?.exitCode}:\n${output}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`prism did not answer within the deadline:\n${output}`);
}

function exampleOf(node: Node | undefined): unknown {
  if (!node) return undefined;
  if (node.example !== undefined) return node.example;
  const first = Object.values<Node>(node.examples ?? {})[0];
  if (first) return deref(doc, first).value;
  return node.schema?.example ?? node.schema?.examples?.[0];
}

/** A request the document allows: parameters and body from the document's own examples. */
function validRequest(op: BundledOperation): { url: string; init: RequestInit } {
  let path = op.path;
  const query = new URLSearchParams();
  for (const raw of op.operation.parameters ?? []) {
    const parameter = deref(doc, raw);
    const value = exampleOf(parameter);
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value ?? 'example')));
    if (parameter.in === 'query' && parameter.required) query.set(parameter.name, String(value ?? 'example'));
  }
  const headers: Record<string, string> = {};
  if (op.secured) headers.authorization = API_KEY;
  const init: RequestInit = { method: op.method.toUpperCase(), headers };
  const body = deref(doc, op.operation.requestBody)?.content?.['application/json'];
  if (body) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(exampleOf(body));
  }
  return { url: `${base}${path}${query.size ? `?${query}` : ''}`, init };
}

async function send(op: BundledOperation, prefer?: string): Promise<{ status: number; headers: Headers; body: unknown }> {
  const { url, init } = validRequest(op);
  if (prefer) (init.headers as Record<string, string>).prefer = prefer;
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Documented headers Prism must fill from the document: never the placeholder `string`. */
function expectDocumentedHeaders(response: Node, headers: Headers): void {
  for (const [name, raw] of Object.entries<Node>(deref(doc, response).headers ?? {})) {
    const header = deref(doc, raw);
    const value = headers.get(name);
    if (header.required) expect(value, `header ${name}`).not.toBeNull();
    if (value !== null) expect(value, `header ${name}`).not.toBe('string');
  }
}

function successStatus(op: BundledOperation): string | undefined {
  return Object.keys(op.operation.responses ?? {})
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];
}

const withSuccessExample = all.filter((op) => {
  const status = successStatus(op);
  return status !== undefined && responseExamples(doc, op.operation.responses[status]).length > 0;
});

const namedExamples = all.flatMap((op) =>
  Object.entries<Node>(op.operation.responses ?? {}).flatMap(([status, response]) =>
    responseExamples(doc, response).map(({ name, value }) => ({ op, status, name, value, response })),
  ),
);

/**
 * Whether the limit of `op` that refuses with this status and code carries `Retry-After`, as the
 * root `x-limits` say (sections 7.1 and 8.3); undefined when no limit of the operation answers so.
 */
function carriesRetryAfter(op: BundledOperation, status: string, code: string): boolean | undefined {
  const limits: Node[] = (op.operation['x-limits'] ?? []).map((id: string) => doc['x-limits'][id]).filter((l: Node | undefined) => l && String(l.status) === status && l.code === code);
  return limits.length === 0 ? undefined : limits.some((l) => l.retryAfter === true);
}

const refusals = namedExamples.filter((e) => e.status === '429');

describe('the Prism mock of dist/openapi.yaml', () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Its own process group, so afterAll stops Prism and anything it started in one signal.
    prism = spawn(
      join(ROOT, 'node_modules', '.bin', 'prism'),
      ['mock', '--host', '127.0.0.1', '--port', String(port), '--errors', join(ROOT, 'dist', 'openapi.yaml')],
      { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prism.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    prism.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitUntilAnswering(`${base}/`, Date.now() + 60_000);
  }, 70_000);

  afterAll(async () => {
    const child = prism;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  });

  it('has operations with success examples to check', () => {
    expect(withSuccessExample.length).toBeGreaterThan(0);
  });

  it.each(withSuccessExample.map((op) => [op.operationId, op] as const))(
    'when %s is called as documented, then it answers its first success example',
    async (_, op) => {
      const status = successStatus(op)!;
      const response = op.operation.responses[status];
      const res = await send(op);
      expect(res.status, JSON.stringify(res.body)).toBe(Number(status));
      expect(res.body).toEqual(responseExamples(doc, response)[0]!.value);
      expectDocumentedHeaders(response, res.headers);
    },
  );

  it.each(namedExamples.map((e) => [`${e.op.operationId} ${e.status} ${e.name}`, e] as const))(
    'when Prefer names %s, then that example is the answer',
    async (_, { op, status, name, value, response }) => {
      const res = await send(op, `code=${status}, example=${name}`);
      expect(res.status, JSON.stringify(res.body)).toBe(Number(status));
      expect(res.body).toEqual(value);
      expectDocumentedHeaders(response, res.headers);
    },
  );

  it('has 429 answers with and without Retry-After to check', () => {
    const kinds = refusals.map(({ op, status, value }) => carriesRetryAfter(op, status, (value as { code: string }).code));
    expect(new Set(kinds)).toEqual(new Set([true, false]));
  });

  it.each(refusals.map((e) => [`${e.op.operationId} ${e.name}`, e] as const))(
    'when Prefer names the 429 %s, then Retry-After comes exactly when its limit carries it',
    async (_, { op, status, name, value }) => {
      const carries = carriesRetryAfter(op, status, (value as { code: string }).code);
      expect(carries, 'a limit of the operation answers this code').toBeDefined();
      const res = await send(op, `code=${status}, example=${name}`);
      expect(res.body).toEqual(value);
      if (carries) expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      else expect(res.headers.get('retry-after')).toBeNull();
    },
  );

  it.each(all.filter((op) => op.operation.responses?.['429']).map((op) => [op.operationId, op] as const))(
    'when Prefer asks %s for a 429 without naming an example, then its first example comes with the header its code carries',
    async (_, op) => {
      const [first] = responseExamples(doc, op.operation.responses['429']);
      const res = await send(op, 'code=429');
      expect(res.body).toEqual(first!.value);
      const carries = carriesRetryAfter(op, '429', (first!.value as { code: string }).code);
      expect(res.headers.get('retry-after') !== null).toBe(carries);
    },
  );

  it('when a required member is missing from setLoginUsername, then it answers 400 with a documented code', async () => {
    const op = all.find((o) => o.operationId === 'setLoginUsername')!;
    const { url, init } = validRequest(op);
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    const schema = deref(doc, op.operation.requestBody).content['application/json'].schema;
    delete body[(deref(doc, schema).required as string[])[0]!];
    const res = await fetch(url, { ...init, body: JSON.stringify(body) });
    const answer = (await res.json()) as { code: string };
    expect(res.status).toBe(400);
    expect(responseExamples(doc, op.operation.responses['400']).map((e) => (e.value as { code: string }).code)).toContain(answer.code);
  });

  it.each(all.filter((op) => op.secured && op.operation.responses?.['401']).map((op) => [op.operationId, op] as const))(
    'when %s is called without Authorization, then it answers 401',
    async (_, op) => {
      const { url, init } = validRequest(op);
      delete (init.headers as Record<string, string>).authorization;
      const res = await fetch(url, init);
      const answer = (await res.json()) as { code: string };
      expect(res.status).toBe(401);
      expect(responseExamples(doc, op.operation.responses['401']).map((e) => (e.value as { code: string }).code)).toContain(answer.code);
    },
  );
});
