// The package as its users get it: `npm pack` in client/, the tarball installed into an empty folder
// outside the repository (so nothing resolves from its node_modules), programs type-checked by that
// folder's own tsc and run with node against the reference server, started as `npm start` starts it.
// The README's integrator example is one of those programs, taken from README.md as written.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../server/test/process.js';
import { createVaultClient } from '../index.js';
import { Holder, until } from './support/sandbox.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLIENT = join(ROOT, 'client');
const TYPESCRIPT = '5.9.3';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

// npm passes its own settings to scripts as npm_* variables; a nested npm must not inherit the
// repository's (its prefix above all), or the clean folder would not be clean.
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') && k !== 'INIT_CWD'));
  return { ...env, ...extra };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv(), timeoutMs = 120_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The first ```ts block of README.md's "Integrators" section, exactly as written. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Integrators\n'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (readme.indexOf('\n## Integrators\n') < 0 || !block) throw new Error('README.md has no ```ts block under "## Integrators"');
  return block[1]!;
}

const SMOKE = `import {
  CLIENT_ERROR_CODES,
  createVaultClient,
  isVaultApiError,
  readVaultSettings,
  recipeLookupUrl,
  verifyWebhookSignature,
  type components,
} from '@credential-vault/client';

// Settings from the environment only: VAULT_API_URL, VAULT_API_KEY, VAULT_PROXY_URL.
const vault = createVaultClient({ onWarning: (w) => console.log('warning:', w) });
const catalog: components['schemas']['TokenCatalog'] = await vault.getTokenCatalog({ url: 'https://www.acme.com/checkout' });
const lookup = await vault.lookupRecipes('https://www.acme.com/checkout?coupon=1');
const health = await vault.getProxyHealth();
let code: string | null = 'none';
try {
  await vault.fileSignupRequest({ website: 'example.com', email: 'jane@example.com', minLength: 16 });
} catch (e) {
  if (isVaultApiError(e, 'fileSignupRequest')) code = e.code;
}
const webhook = await verifyWebhookSignature({ rawBody: '{}', secret: 's', timestamp: '1', signature: '00', now: 1000 });
console.log(JSON.stringify({
  logins: catalog.logins.map((login) => login.label),
  merchant: lookup.merchant?.id,
  health,
  code,
  clientCodes: CLIENT_ERROR_CODES.length,
  requestTimeoutMs: readVaultSettings().settings.requestTimeoutMs,
  lookupUrl: recipeLookupUrl('https://checkout.payco.com/s/sess_1'),
  webhook,
}));
`;

// Compiles only if each of these is an error: the installed declarations carry the document's types.
const WRONG = `import { createVaultClient, type ErrorCode } from '@credential-vault/client';

const vault = createVaultClient();
// @ts-expect-error minLength is a number
await vault.fileSignupRequest({ website: 'acme.com', email: 'jane@example.com', minLength: 'abc' });
// @ts-expect-error there is no operation getTokens
await vault.getTokens();
// @ts-expect-error the request id is required
await vault.getSignupRequest({});
// @ts-expect-error daily_limit is not a code of getTokenCatalog
export const code: ErrorCode<'getTokenCatalog'> = 'daily_limit';
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    lib: ['ES2022', 'DOM'],
    // No @types/node: the package's declarations must stand on their own.
    types: [],
    resolveJsonModule: true,
    skipLibCheck: false,
  },
  files: ['example.mts', 'smoke.mts', 'wrong.mts'],
};

describe('the packed client package', () => {
  let folder: string;
  let packed: { filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> };
  let installMs: number;
  let compiled: Run;
  let server: ServerProcess;
  let local: { baseUrl: string; accountId: string; adminToken: string; keys: { agent: string; signup: string } };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'vault-client-'));
    const pack = await run('npm', ['pack', '--json', '--pack-destination', folder], CLIENT);
    if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')));
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
    const started = Date.now();
    const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, packed.filename), `typescript@${TYPESCRIPT}`], folder);
    installMs = Date.now() - started;
    if (install.code !== 0) throw new Error(`npm install failed: ${install.stderr}`);
    console.log(
      `client package: ${packed.filename} ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.files.length} files; installed with typescript in ${installMs} ms`,
    );

    mkdirSync(join(folder, 'data'));
    server = await spawnServer({ VAULT_DATA_DIR: join(folder, 'data') }, ['--demo']);
    local = JSON.parse(readFileSync(join(folder, 'data', 'local.json'), 'utf8'));

    // The programs are compiled once, here, and run by the tests below; the example types the demo
    // server's data/local.json, so it is compiled after the server wrote it.
    writeFileSync(join(folder, 'example.mts'), readmeExample());
    writeFileSync(join(folder, 'smoke.mts'), SMOKE);
    writeFileSync(join(folder, 'wrong.mts'), WRONG);
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    compiled = await run(process.execPath, [join(folder, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', folder], folder);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('when packed, then the tarball holds the built ESM, its declarations and the schema types, and depends on openapi-fetch alone', () => {
    const paths = packed.files.map((f) => f.path).sort();
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/schema.d.ts', 'dist/generated/document.js']));
    expect(paths.filter((p) => !p.startsWith('dist/') && p !== 'package.json' && p !== 'README.md')).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(folder, 'node_modules', '@credential-vault', 'client', 'package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual({ 'openapi-fetch': '0.17.0' });
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(manifest.type).toBe('module');
  });

  it('when programs are type-checked with the clean folder tsc, then correct ones compile and wrong calls are refused', () => {
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
  });

  it('when a program runs from the installed package with only environment settings, then it reaches every part of the API it calls', async () => {
    const smoke = await run(process.execPath, ['smoke.mjs'], folder, {
      PATH: process.env.PATH,
      VAULT_API_URL: local.baseUrl,
      VAULT_API_KEY: local.keys.agent,
      VAULT_PROXY_URL: `${local.baseUrl.replace('http:', 'ws:')}/v1`,
    });
    expect(smoke.stderr).toBe('');
    const document = JSON.parse(readFileSync(join(ROOT, 'dist', 'openapi.json'), 'utf8'));
    expect(JSON.parse(smoke.stdout)).toEqual({
      logins: ['acme'],
      merchant: 'acme.com',
      health: { ok: true },
      code: 'signup_not_enabled',
      clientCodes: document.components.schemas.ClientErrorCode.enum.length,
      requestTimeoutMs: 180_000,
      lookupUrl: 'https://checkout.payco.com',
      webhook: { valid: false, reason: 'mismatch' },
    });
  });

  it('when the README example runs as written and the account holder approves, then it prints the page logins and the approval', async () => {
    const holder = new Holder(local.baseUrl, local.adminToken);
    const example = run(process.execPath, ['example.mjs'], folder, { PATH: process.env.PATH }, 60_000);
    const link = await until(async () => (await holder.links(local.accountId)).find((l) => l.kind === 'signup' && l.status === 'pending'), 30_000);
    await holder.decideSignup(local.accountId, link.requestId!, 'approve');
    const done = await example;
    expect(done.stderr).toBe('');
    expect(done.stdout).toBe("logins for this page: [ 'acme' ]\nsignup request approved\n");
    expect(done.code).toBe(0);
  }, 60_000);

  // After the test above: the example's own request was decided, so the five filed here are the only pending ones.
  it('when five requests already await the account holder, then the README example takes its too_many_pending branch', async () => {
    const vault = createVaultClient({ env: {}, apiUrl: local.baseUrl, apiKey: local.keys.signup });
    for (let i = 0; i < 5; i++) await vault.fileSignupRequest({ website: `pending${i}.com`, email: 'jane@example.com' });
    const done = await run(process.execPath, ['example.mjs'], folder, { PATH: process.env.PATH }, 30_000);
    expect(done.stderr).toBe('');
    expect(done.stdout).toBe("logins for this page: [ 'acme' ]\nfive requests already await the account holder\n");
    expect(done.code).toBe(0);
  });
});
