import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCertificates, type TestCertificates } from './support/certs.js';
import { startFront, startProxy, type Encoding, type Front, type FrontOptions } from './support/front.js';
import { startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';

/**
 * The runner against the reference server as a staging edge serves it: TLS with a test CA, a client
 * certificate asked for, an untrusted certificate, a base path with a gateway's header, compressed
 * and chunked answers, a proxy. Each run takes the recipe reads, the auth cases and three raw-head
 * cases, so every path of the connection layer is taken in each.
 */

const HEAD_CASES = ['getTokenCatalog/request-head-over-cap', 'getRecipes/request-head-over-cap', 'fileSignupRequest/request-head-over-cap'];
const SELECTION = ['--only', 'getRecipes/*', '--only', 'getTokenCatalog/auth-*', ...HEAD_CASES.flatMap((id) => ['--only', id]), '--max-rate', '0', '--seed', '7'];
const GATEWAY_KEY = 'gw-4c1e7f0b9a2d';

type Run = Awaited<ReturnType<typeof conform>>;

function expectAllPassed(run: Run): void {
  expect(run.failed, run.output).toEqual([]);
  expect(run.errors, run.output).toEqual([]);
  expect(run.exitCode, run.output).toBe(0);
  for (const id of ['getTokenCatalog/auth-key-revoked', 'getRecipes/index-without-bodies']) expect(run.passed, run.output).toContain(id);
  // The 431 of an oversized head is the reference's own answer: judged by the specification it matches the reference, never passes.
  for (const id of HEAD_CASES) expect(run.judgement === 'reference' ? run.passed : run.matched, run.output).toContain(id);
}

/** The raw-head requests among what a front saw: their padding is the size of the bound. */
function rawHeads(front: Front) {
  return front.seen.filter((r) => r.headers['x-padding'] !== undefined);
}

describe('the runner against a deployment behind TLS', () => {
  let server: ReferenceServer;
  let dir: string;
  let certs: TestCertificates;
  const fronts: Front[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-tls-'));
    certs = makeTestCertificates(dir);
    server = await startReference();
  });
  afterAll(async () => {
    await Promise.all(fronts.map((f) => f.stop()));
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function front(options: Omit<FrontOptions, 'target'>): Promise<Front> {
    const f = await startFront({ target: server.base, ...options });
    fronts.push(f);
    return f;
  }
  const run = (base: string, args: string[] = [], env: Record<string, string> = {}) => conform(['--base-url', base, '--admin-token', server.adminToken, ...SELECTION, ...args], env);

  it('when the deployment has a certificate of a private CA, then without --ca-cert the run stops with one line, and with it every case passes', async () => {
    const f = await front({ tls: { cert: certs.cert, key: certs.key } });
    await expect(run(f.base)).rejects.toThrow(/^cannot reach https:\/\/127\.0\.0\.1:\d+: GET \/v1\/recipes failed: the deployment's certificate is not trusted \(\w+\): give its CA with --ca-cert FILE, or --insecure for a sandbox$/);
    const r = await run(f.base, ['--ca-cert', certs.ca]);
    expectAllPassed(r);
    expect(r.output.split('\n')[0]).toContain(`[CA ${certs.ca}]`);
    expect(rawHeads(f).length).toBe(HEAD_CASES.length);
    // The fixtures driver's calls went the same way.
    expect(f.seen.some((s) => s.url.startsWith('/_fixtures/'))).toBe(true);
  });

  it('when the deployment asks for a client certificate, then without --client-cert the run stops with a clear line, and with it every case passes', async () => {
    const f = await front({ tls: { cert: certs.cert, key: certs.key, ca: certs.ca, requireClientCert: true } });
    await expect(run(f.base, ['--ca-cert', certs.ca])).rejects.toThrow(/the deployment asks for a client certificate \(\w+\): give --client-cert FILE and --client-key FILE$/);
    const r = await run(f.base, ['--ca-cert', certs.ca, '--client-cert', certs.clientCert, '--client-key', certs.clientKey]);
    expectAllPassed(r);
    expect(r.output.split('\n')[0]).toContain(`client certificate ${certs.clientCert}`);
  });

  it('when the certificate is not trusted and --insecure is given, then every case passes and the first line says it loudly', async () => {
    const f = await front({ tls: { cert: certs.cert, key: certs.key } });
    const r = await run(f.base, ['--insecure']);
    expectAllPassed(r);
    expect(r.output.split('\n')[0]).toContain('[TLS CERTIFICATES NOT VERIFIED (--insecure)]');
  });

  it('when the API is under a base path behind a gateway that wants a header, then every request, raw heads and fixtures included, keeps both', async () => {
    const f = await front({ tls: { cert: certs.cert, key: certs.key }, basePath: '/vault', requireHeader: ['X-Gateway-Key', GATEWAY_KEY] });
    expect(f.base).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/vault$/);
    const r = await run(f.base, ['--ca-cert', certs.ca, '--header', `X-Gateway-Key=${GATEWAY_KEY}`]);
    expectAllPassed(r);
    expect(f.refused).toBe(0);
    expect(f.seen.every((s) => s.url.startsWith('/vault/'))).toBe(true);
    const heads = rawHeads(f);
    expect(heads.map((h) => h.url).sort()).toEqual(['/vault/v1/logins/requests', '/vault/v1/recipes', '/vault/v1/tokens']);
    expect(heads.every((h) => h.headers.host === new URL(f.base).host)).toBe(true);
    expect(r.output.split('\n')[0]).toContain('extra header X-Gateway-Key');
    expect(r.output).not.toContain(GATEWAY_KEY);
  });

  it('when every answer is compressed (gzip, br, deflate) or chunked, then the runner decodes them, raw heads included, and every case passes', async () => {
    const byPath: [string, Encoding][] = [
      ['/v1/recipes', 'gzip'],
      ['/v1/tokens', 'br'],
      ['/_fixtures/', 'deflate'],
    ];
    const f = await front({ tls: { cert: certs.cert, key: certs.key }, compress: (path) => byPath.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 'identity' });
    const r = await run(f.base, ['--ca-cert', certs.ca]);
    expectAllPassed(r);
    // Answers without a body (204) are not encoded.
    const encodings = new Set(f.seen.map((s) => s.encoding).filter((e) => e !== undefined));
    expect(encodings).toEqual(new Set(['gzip', 'br', 'deflate', 'identity']));
    expect(f.seen.every((s) => s.headers['accept-encoding'] === 'gzip, deflate, br')).toBe(true);
    expect(rawHeads(f).map((h) => h.encoding).sort()).toEqual(['br', 'gzip', 'identity']);
  });

  it('when HTTPS_PROXY names a proxy, then every request goes through its CONNECT tunnel, raw heads included, and every case passes', async () => {
    const f = await front({ tls: { cert: certs.cert, key: certs.key } });
    const proxy = await startProxy();
    try {
      const r = await run(f.base, ['--ca-cert', certs.ca], { HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com' });
      expectAllPassed(r);
      expect(r.output.split('\n')[0]).toContain(`through the proxy ${proxy.url}`);
      const authority = new URL(f.base).host;
      expect(new Set(proxy.tunnels)).toEqual(new Set([authority]));
      // The recipe reads, the auth cases and the fixture calls reuse kept-alive tunnels; each raw head opens its own.
      expect(proxy.tunnels.length).toBeGreaterThanOrEqual(HEAD_CASES.length + 1);
    } finally {
      await proxy.stop();
    }
  });

  it('when a case fails, then its printed replays run as printed: curl with --cacert for a request, printf into openssl s_client for a raw head', async () => {
    // A front that answers every request with a Cache-Control the document does not allow. On the
    // 431 of the HTTP layer that is a reference choice, so the run judges by the reference.
    const f = await front({ tls: { cert: certs.cert, key: certs.key }, tamper: (h) => void (h['cache-control'] = 'private') });
    const key = server.keys.agent;
    const r = await conform(
      ['--base-url', f.base, '--ca-cert', certs.ca, '--header', `X-Gateway-Key=${GATEWAY_KEY}`, '--only', 'getRecipes/index-without-bodies', '--only', 'getTokenCatalog/request-head-over-cap', '--only', 'getTokenCatalog/unlisted-query-parameters-ignored', '--max-rate', '0', '--judge', 'reference'],
      { VAULT_CONFORMANCE_KEY: key },
    );
    expect(r.failed).toEqual(['getRecipes/index-without-bodies', 'getTokenCatalog/request-head-over-cap', 'getTokenCatalog/unlisted-query-parameters-ignored']);
    // Secrets given by the environment and by --header are masked like the others.
    expect(r.output).not.toContain(GATEWAY_KEY);
    expect(r.output).not.toContain(key);
    expect(r.output).toContain('<header X-Gateway-Key>');
    expect(r.output).toContain('authorization: Bearer <API key given as key>');
    const replays = r.output.split('\n').filter((l) => l.startsWith('Replay')).map((l) => l.slice('Replay'.length).trim());
    const curl = replays.find((l) => l.startsWith('curl ') && l.includes('/v1/recipes'))!;
    const raw = replays.find((l) => l.includes('openssl s_client'))!;
    expect(curl).toContain(`--cacert ${certs.ca}`);
    expect(curl).toContain('--compressed');
    expect(raw).toContain(`-CAfile ${certs.ca}`);
    expect(raw).toContain('-verify_return_error');
    // Not spawnSync: the front answering the replay runs in this process.
    const sh = (command: string) =>
      new Promise<{ stdout: string; stderr: string }>((resolve) => execFile('sh', ['-c', command], { encoding: 'utf8', timeout: 30_000 }, (_e, stdout, stderr) => resolve({ stdout, stderr })));
    const recipes = await sh(curl);
    expect(recipes.stdout, recipes.stderr).toMatch(/^HTTP\/1\.1 200 /);
    expect(recipes.stdout).toContain('"recipes"');
    const head = await sh(raw);
    expect(head.stdout, head.stderr).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.stdout).toContain('"code":"bad_request"');
  });
});
