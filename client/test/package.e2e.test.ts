// The package as its users get it: `npm pack` in client/, the tarball installed into empty folders
// outside the repository (so nothing resolves from its node_modules), programs type-checked there and
// run with node against the reference server, started as `npm start` starts it: an ES module project
// with its own TypeScript 5 and 7, under the strictest settings, and a CommonJS one (`module: node16`)
// compiled with the repository's tsc. Every ```ts block of the integrator's guides (openapi/guides/)
// and of the package's own README is compiled there as written, and the guides' programs are run
// against the sandbox and the mock; the client's type tests are compiled too, importing the
// installed package.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../server/test/process.js';
import { createVaultClient, VaultApiError } from '../index.js';
import { freePort } from '../../scripts/free-port.js';
import { Holder, until } from './support/sandbox.js';
import { forward, startTinyServer, type TinyServer } from './support/tiny-server.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLIENT = join(ROOT, 'client');
const TYPESCRIPT = '5.9.3';
// The current TypeScript 7 (npm's typescript@latest when this was written), installed beside 5 under
// an alias. It is a native compiler with no JavaScript API; its package's bin/tsc runs it.
const TYPESCRIPT_7 = '7.0.2';

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

/** The client's type-level tests, compiled in the clean folder against the installed package. */
const TYPE_TESTS = ['client.test-d.ts', 'types.test-d.ts'];

/** A type test of the repository as an integrator would write it: its imports of the client name the package. */
function asInstalled(source: string): string {
  const rewritten = source.replace(/from '\.\.\/(index|generated\/schema)\.js'/g, "from '@credential-vault/client'");
  if (/from '\.\.?\//.test(rewritten)) throw new Error('a type test imports a repository file the package does not ship');
  return rewritten;
}

/**
 * The integrator's guides (openapi/guides/, rendered into the reference docs) name each of their
 * ```ts blocks here, in order: a block added to a guide fails the test below until it is named.
 */
const GUIDE_SNIPPETS: Record<string, string[]> = {
  'client.md': ['example', 'wait', 'errors', 'retries', 'mock', 'lookup', 'request-id', 'recovery'],
  'webhooks.md': ['receiver', 'sign'],
};

const tsBlocks = (text: string) => [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

/**
 * Every documented snippet, by the file it is compiled as: the ```ts blocks of the guides and of
 * the package's own README (client/README.md), as written.
 */
function documentedSnippets(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [guide, names] of Object.entries(GUIDE_SNIPPETS)) {
    const blocks = tsBlocks(readFileSync(join(ROOT, 'openapi', 'guides', guide), 'utf8'));
    if (blocks.length !== names.length) throw new Error(`openapi/guides/${guide} has ${blocks.length} \`\`\`ts blocks; GUIDE_SNIPPETS names ${names.length}`);
    blocks.forEach((text, i) => (out[`${names[i]}.mts`] = text));
  }
  const own = tsBlocks(readFileSync(join(CLIENT, 'README.md'), 'utf8'));
  if (own.length < 1) throw new Error('client/README.md lost its ```ts blocks');
  own.forEach((text, i) => (out[`package-readme-${i}.mts`] = text));
  return out;
}

/** The client guide's ```sh block under "### Install": pack the package and install its tarball into `$PROJECT`. */
function installBlock(): string {
  const guide = readFileSync(join(ROOT, 'openapi', 'guides', 'client.md'), 'utf8');
  const section = guide.slice(guide.indexOf('\n### Install\n'), guide.indexOf('\n### ', guide.indexOf('\n### Install\n') + 1));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('openapi/guides/client.md has no ```sh block under "### Install"');
  return block;
}

const SMOKE = `import {
  CLIENT_ERROR_CODES,
  createVaultClient,
  isVaultApiError,
  readVaultSettings,
  recipeLookupUrl,
  USER_AGENT,
  VaultError,
  VaultSettingsError,
  verifyWebhookSignature,
  type components,
} from '@credential-vault/client';

// Settings from the environment only: VAULT_API_URL, VAULT_API_KEY, VAULT_PROXY_URL.
const vault = createVaultClient({ onWarning: (w) => console.log('warning:', w) });
const catalog: components['schemas']['TokenCatalog'] = await vault.getTokenCatalog({ url: 'https://www.acme.com/checkout' });
const lookup = await vault.lookupRecipes('https://www.acme.com/checkout?coupon=1');
const health = await vault.getProxyHealth();
let code: string | null = 'none';
let requestId: string | undefined;
try {
  await vault.fileSignupRequest({ website: 'example.com', email: 'jane@example.com', minLength: 16 });
} catch (e) {
  if (isVaultApiError(e, 'fileSignupRequest', 403)) ({ code, requestId } = e);
}
let settings = 'accepted';
try {
  createVaultClient({ apiUrl: \`\${readVaultSettings().settings.apiUrl}/v1\` });
} catch (e) {
  if (e instanceof VaultSettingsError && e instanceof VaultError) settings = \`\${e.variable}: \${e.message}\`;
}
const webhook = await verifyWebhookSignature({ rawBody: '{}', secret: 's', timestamp: '1', signature: '00', now: 1000 });
console.log(JSON.stringify({
  logins: catalog.logins.map((login) => login.label),
  merchant: lookup.merchant?.id,
  health,
  code,
  requestId,
  settings,
  userAgent: USER_AGENT,
  clientCodes: CLIENT_ERROR_CODES.length,
  requestTimeoutMs: readVaultSettings().settings.requestTimeoutMs,
  lookupUrl: recipeLookupUrl('https://checkout.payco.com/s/sess_1'),
  webhook,
}));
`;

// Compiles only if each of these is an error: the installed declarations carry the document's types.
const WRONG = `import { createVaultClient, isVaultApiError, VaultApiError, type ErrorCode } from '@credential-vault/client';

const vault = createVaultClient();
// @ts-expect-error minLength is a number
await vault.fileSignupRequest({ website: 'acme.com', email: 'jane@example.com', minLength: 'abc' });
// @ts-expect-error there is no operation getTokens
await vault.getTokens();
// @ts-expect-error the request id is required
await vault.getSignupRequest({});
// @ts-expect-error daily_limit is not a code of getTokenCatalog
export const code: ErrorCode<'getTokenCatalog'> = 'daily_limit';
export function branch(e: unknown): string {
  if (e instanceof VaultApiError) {
    switch (e.code) {
      case 'too_many_pending':
        return 'wait';
      // @ts-expect-error no operation answers too_many_pendng
      case 'too_many_pendng':
        return 'never';
    }
  }
  // @ts-expect-error getTokenCatalog never answers too_many_pending
  if (isVaultApiError(e, 'getTokenCatalog') && e.code === 'too_many_pending') return 'never';
  // @ts-expect-error a 429 of fileSignupRequest is never login_limit
  if (isVaultApiError(e, 'fileSignupRequest', 429) && e.code === 'login_limit') return 'never';
  return 'other';
}
`;

// A CommonJS TypeScript project, as many Node services still are: compiled by \`module: node16\`,
// where an ES-module-only package is TS1479, and run with require().
const COMMONJS = `import { createVaultClient, isVaultApiError, VaultError, VaultSettingsError, USER_AGENT } from '@credential-vault/client';

async function main(): Promise<void> {
  const vault = createVaultClient();
  const catalog = await vault.getTokenCatalog({ url: 'https://www.acme.com/checkout' });
  let code: string | null = 'none';
  try {
    await vault.setLoginUsername({ label: 'acme', username: 'shopper.jane' });
  } catch (e) {
    if (!isVaultApiError(e, 'setLoginUsername')) throw e;
    switch (e.code) {
      case 'signup_not_enabled':
      case 'not_found':
        code = e.code;
        break;
      default:
        code = \`other: \${e.code}\`;
    }
  }
  let refused = '';
  try {
    createVaultClient({ apiKey: 'vk with space' });
  } catch (e) {
    if (e instanceof VaultSettingsError && e instanceof VaultError) refused = e.variable;
  }
  console.log(JSON.stringify({ logins: catalog.logins.map((login) => login.label), code, refused, userAgent: USER_AGENT }));
}

main().catch((e: unknown) => {
  console.error(e);
  throw e;
});
`;
const COMMONJS_TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false },
  files: ['main.ts'],
};

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
    // The strictest settings an integrator may use; the package's declarations are checked under them too.
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
  },
  files: ['smoke.mts', 'wrong.mts', ...TYPE_TESTS.map((t) => t.replace(/\.ts$/, '.mts'))],
};

// The documented snippets are programs for Node: the same strictest settings, with Node's types
// (installed in the clean folder too), since a receiver uses node:http and a program process.env.
const SNIPPETS_TSCONFIG = (files: string[]) => ({
  extends: './tsconfig.json',
  compilerOptions: { types: ['node'] },
  files,
});

// The Prism mock of `npm run mock`, for the guide's programs that send it `Prefer`; started with the
// rest of the set-up and awaited by that test alone. Its own process group, stopped in one signal.
let prism: ChildProcess | undefined;
let prismBase = '';
let prismOutput = '';
let prismStarted: Promise<void> = Promise.resolve();

async function startPrism(): Promise<void> {
  const port = await freePort();
  prismBase = `http://127.0.0.1:${port}`;
  prism = spawn(join(ROOT, 'node_modules', '.bin', 'prism'), ['mock', '--host', '127.0.0.1', '--port', String(port), join(ROOT, 'dist', 'openapi.yaml')], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prism.stdout!.on('data', (chunk: Buffer) => (prismOutput += chunk.toString()));
  prism.stderr!.on('data', (chunk: Buffer) => (prismOutput += chunk.toString()));
  await until(
    async () => {
      if (prism?.exitCode !== null) throw new Error(`prism exited:\n${prismOutput}`);
      return (await fetch(`${prismBase}/v1/recipes`)).status > 0 ? true : undefined;
    },
    90_000,
  );
}

async function stopPrism(): Promise<void> {
  const child = prism;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

describe('the packed client package', () => {
  let folder: string;
  let cjsFolder: string;
  let cjsCompiled: Run;
  let packed: { filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> };
  let installMs: number;
  let compiled: Run;
  let compiled7: Run;
  let snippets: Run;
  let snippets7: Run;
  let server: ServerProcess;
  let local: { baseUrl: string; accountId: string; adminToken: string; keys: { agent: string; signup: string } };

  beforeAll(async () => {
    prismStarted = startPrism();
    // Awaited by its test; a failure to start is reported there, not as an unhandled rejection here.
    prismStarted.catch(() => undefined);
    folder = mkdtempSync(join(tmpdir(), 'vault-client-'));
    const pack = await run('npm', ['pack', '--json', '--pack-destination', folder], CLIENT);
    if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')));
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
    // The CommonJS project: no "type", so its .ts files compile to CommonJS under node16.
    cjsFolder = mkdtempSync(join(tmpdir(), 'vault-client-cjs-'));
    writeFileSync(join(cjsFolder, 'package.json'), JSON.stringify({ name: 'integrator-cjs', private: true }));
    const started = Date.now();
    const tarball = join(folder, packed.filename);
    // Node's types at the version the repository uses, for the documented snippets alone.
    const { version: nodeTypes } = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@types', 'node', 'package.json'), 'utf8')) as { version: string };
    const [install, cjsInstall] = await Promise.all([
      run(
        'npm',
        ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, `typescript@${TYPESCRIPT}`, `typescript7@npm:typescript@${TYPESCRIPT_7}`, `@types/node@${nodeTypes}`],
        folder,
      ),
      // The CommonJS project installs the package as the client guide's "Install" says, as written.
      run('bash', ['-euo', 'pipefail', '-c', installBlock()], ROOT, cleanEnv({ PROJECT: cjsFolder })),
    ]);
    installMs = Date.now() - started;
    if (install.code !== 0) throw new Error(`npm install failed: ${install.stderr}`);
    if (cjsInstall.code !== 0) throw new Error(`npm install (CommonJS project) failed: ${cjsInstall.stderr}`);
    console.log(
      `client package: ${packed.filename} ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.files.length} files; installed with typescript in ${installMs} ms`,
    );

    mkdirSync(join(folder, 'data'));
    server = await spawnServer({ VAULT_DATA_DIR: join(folder, 'data') }, ['--demo']);
    local = JSON.parse(readFileSync(join(folder, 'data', 'local.json'), 'utf8'));

    // The programs are compiled once, here, and run by the tests below; the example types the demo
    // server's data/local.json, so it is compiled after the server wrote it.
    const documented = documentedSnippets();
    for (const [name, text] of Object.entries(documented)) writeFileSync(join(folder, name), text);
    writeFileSync(join(folder, 'smoke.mts'), SMOKE);
    writeFileSync(join(folder, 'wrong.mts'), WRONG);
    for (const name of TYPE_TESTS) writeFileSync(join(folder, name.replace(/\.ts$/, '.mts')), asInstalled(readFileSync(join(CLIENT, 'test', name), 'utf8')));
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(join(folder, 'tsconfig.snippets.json'), JSON.stringify(SNIPPETS_TSCONFIG(Object.keys(documented)), null, 2));
    writeFileSync(join(cjsFolder, 'main.ts'), COMMONJS);
    writeFileSync(join(cjsFolder, 'tsconfig.json'), JSON.stringify(COMMONJS_TSCONFIG, null, 2));
    const tsc5 = join(folder, 'node_modules', 'typescript', 'bin', 'tsc');
    const tsc7 = join(folder, 'node_modules', 'typescript7', 'bin', 'tsc');
    [compiled, compiled7, snippets, snippets7, cjsCompiled] = await Promise.all([
      run(process.execPath, [tsc5, '-p', folder], folder),
      run(process.execPath, [tsc7, '-p', folder], folder),
      run(process.execPath, [tsc5, '-p', join(folder, 'tsconfig.snippets.json')], folder),
      // TypeScript 7 without emitting: the programs it would write are the ones TypeScript 5 wrote.
      run(process.execPath, [tsc7, '--noEmit', '-p', join(folder, 'tsconfig.snippets.json')], folder),
      // The repository's own tsc: the CommonJS project has no compiler of its own.
      run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', cjsFolder], cjsFolder),
    ]);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await stopPrism();
    for (const dir of [folder, cjsFolder]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('when packed, then the tarball holds the built ESM and CommonJS, each with its declarations and the schema types, and depends on openapi-fetch alone', () => {
    const paths = packed.files.map((f) => f.path).sort();
    expect(paths).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/schema.d.ts', 'dist/generated/document.js']),
    );
    expect(paths).toEqual(
      expect.arrayContaining(['dist/cjs/package.json', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/generated/schema.d.ts', 'dist/cjs/generated/document.js']),
    );
    expect(paths.filter((p) => !p.startsWith('dist/') && p !== 'package.json' && p !== 'README.md')).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(folder, 'node_modules', '@credential-vault', 'client', 'package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual({ 'openapi-fetch': '0.17.0' });
    expect(manifest.exports['.']).toEqual({
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/cjs/index.d.ts', default: './dist/cjs/index.js' },
    });
    expect(manifest.type).toBe('module');
    expect(JSON.parse(readFileSync(join(folder, 'node_modules', '@credential-vault', 'client', 'dist', 'cjs', 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
  });

  it('when programs and the type tests are type-checked with the clean folder TypeScript 5, under the strictest settings, then correct ones compile and wrong calls are refused', () => {
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
  });

  it('when the same are type-checked with TypeScript 7, then they compile the same', async () => {
    const version = await run(process.execPath, [join(folder, 'node_modules', 'typescript7', 'bin', 'tsc'), '--version'], folder);
    expect(version.stdout.trim()).toBe(`Version ${TYPESCRIPT_7}`);
    expect(compiled7.stdout + compiled7.stderr).toBe('');
    expect(compiled7.code).toBe(0);
  });

  it('when every documented snippet is type-checked as written, under the strictest settings, then each compiles with TypeScript 5 and 7', () => {
    const names = Object.keys(documentedSnippets());
    expect(names).toEqual([...Object.values(GUIDE_SNIPPETS).flat().map((name) => `${name}.mts`), 'package-readme-0.mts']);
    expect(snippets.stdout + snippets.stderr).toBe('');
    expect(snippets.code).toBe(0);
    expect(snippets7.stdout + snippets7.stderr).toBe('');
    expect(snippets7.code).toBe(0);
  });

  it("when the shipped declarations are read, then their comments name no source file the package does not ship", () => {
    const shipped = new Set(packed.files.map((f) => f.path));
    const named = packed.files
      .filter((f) => f.path.endsWith('.d.ts'))
      .flatMap((f) => [...readFileSync(join(folder, 'node_modules', '@credential-vault', 'client', f.path), 'utf8').matchAll(/[\w./-]+\.(?:ts|mts|cts)\b/g)].map((m) => ({ file: f.path, name: m[0] })))
      .filter(({ name }) => !name.endsWith('.d.ts') && ![...shipped].some((path) => path.endsWith(name.replace(/^\.?\//, ''))));
    expect(named).toEqual([]);
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
    const { version } = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as { version: string };
    const result = JSON.parse(smoke.stdout);
    expect(result).toEqual({
      logins: ['acme'],
      merchant: 'acme.com',
      health: { ok: true },
      code: 'signup_not_enabled',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      settings: `VAULT_API_URL: apiUrl "${local.baseUrl}/v1" ends in the version segment /v1; give the base URL without it (${local.baseUrl}): the client adds /v1 from the document's paths`,
      userAgent: `credential-vault-client/${version}`,
      clientCodes: document.components.schemas.ClientErrorCode.enum.length,
      requestTimeoutMs: 180_000,
      lookupUrl: 'https://checkout.payco.com',
      webhook: { valid: false, reason: 'mismatch' },
    });
    // The id of the refusal is the one the server logged it under.
    await until(async () => (server.output().includes(`"requestId":"${result.requestId}"`) ? true : undefined));
    expect(server.output().split('\n').find((line) => line.includes(result.requestId))).toMatch(/"status":403/);
  });

  it('when a CommonJS project (module node16) is compiled with the repository tsc, then it compiles, requires the CommonJS build and runs against the server', async () => {
    expect(cjsCompiled.stdout + cjsCompiled.stderr).toBe('');
    expect(cjsCompiled.code).toBe(0);
    expect(readFileSync(join(cjsFolder, 'main.js'), 'utf8')).toContain('require("@credential-vault/client")');
    const resolved = await run(process.execPath, ['-p', "require.resolve('@credential-vault/client')"], cjsFolder);
    expect(resolved.stdout.trim()).toBe(join(cjsFolder, 'node_modules', '@credential-vault', 'client', 'dist', 'cjs', 'index.js'));
    const main = await run(process.execPath, ['main.js'], cjsFolder, { PATH: process.env.PATH, VAULT_API_URL: local.baseUrl, VAULT_API_KEY: local.keys.agent });
    expect(main.stderr).toBe('');
    const { version } = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as { version: string };
    expect(JSON.parse(main.stdout)).toEqual({ logins: ['acme'], code: 'signup_not_enabled', refused: 'VAULT_API_KEY', userAgent: `credential-vault-client/${version}` });
    expect(main.code).toBe(0);
  });

  it("when the guide's first program runs as written and the account holder approves, then it prints the page logins and the approval", async () => {
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
  it("when the guide's program of the extension points runs against Prism, then the mock answers what Prefer asked and every request carried the trace context", async () => {
    await prismStarted;
    const relay: TinyServer = await startTinyServer((req, res, _i, seen) => forward(prismBase, req, res, seen));
    try {
      const done = await run(process.execPath, ['mock.mjs'], folder, { PATH: process.env.PATH, VAULT_API_URL: relay.base, VAULT_API_KEY: 'vk_mock' }, 30_000);
      expect(done.stderr).toBe('');
      expect(done.stdout).toBe('POST /v1/logins/username 409 55\nthe mock answered username_already_set\n');
      expect(done.code).toBe(0);
      expect(relay.seen).toHaveLength(1);
      expect(relay.seen[0]!.headers.prefer).toBe('code=409, example=username_already_set');
      expect(relay.seen[0]!.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    } finally {
      await relay.close();
    }
  }, 90_000);

  it('when lookupRecipes asks Prism without Prefer, then the index it answers is refused as not the lookup; with Prefer, the lookup is returned', async () => {
    await prismStarted;
    const vault = createVaultClient({ env: {}, apiUrl: prismBase, onWarning: () => undefined });
    const refused = await vault.lookupRecipes('https://www.acme.com/checkout').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VaultApiError);
    expect((refused as VaultApiError).error).toContain('not a RecipeLookup: it lacks merchant, platform, signup, signupPlatform');
    const lookup = await vault.lookupRecipes('https://www.acme.com/checkout', { headers: { Prefer: 'example=lookup' } });
    expect(Object.keys(lookup).sort()).toEqual(['merchant', 'platform', 'signup', 'signupPlatform']);
  }, 90_000);

  it("when the guide's other programs run as written against the sandbox, then each prints what the guide says it does", async () => {
    const env = { PATH: process.env.PATH, VAULT_API_URL: local.baseUrl, VAULT_API_KEY: local.keys.agent };
    const outputs = Object.fromEntries(
      await Promise.all(
        ['errors', 'retries', 'lookup', 'request-id', 'recovery'].map(async (name) => {
          const done = await run(process.execPath, [`${name}.mjs`], folder, env, 30_000);
          expect(done.stderr, name).toBe('');
          expect(done.code, name).toBe(0);
          return [name, done.stdout] as const;
        }),
      ),
    );
    // The agent key has no signup permission: the exhaustive switch takes the API's refusal.
    expect(outputs.errors).toMatch(/^refused: 403 signup_not_enabled [0-9a-f-]{36}\n$/);
    expect(outputs.retries).toBe('1 logins\n');
    expect(outputs.lookup).toBe('sent as https://www.acme.com/checkout\nmerchant recipe: acme.com platform recipe: none\n');
    expect(outputs['request-id']).toMatch(/^status 200 after 1 attempt\(s\); quote [0-9a-f-]{36}\n$/);
    expect(outputs.recovery).toMatch(/^submission \S+\n$/);
  }, 60_000);

  it("when the guide's recipe program runs against Prism with VAULT_MOCK=1, then it asks for the lookup and gets it", async () => {
    await prismStarted;
    const done = await run(process.execPath, ['lookup.mjs'], folder, { PATH: process.env.PATH, VAULT_API_URL: prismBase, VAULT_API_KEY: 'vk_mock', VAULT_MOCK: '1' }, 30_000);
    expect(done.stderr).toBe('');
    expect(done.stdout).toMatch(/^sent as https:\/\/www\.acme\.com\/checkout\nmerchant recipe: \S+ platform recipe: \S+\n$/);
    expect(done.code).toBe(0);
  }, 90_000);

  it("when five requests already await the account holder, then the guide's first program takes its too_many_pending branch", async () => {
    const vault = createVaultClient({ env: {}, apiUrl: local.baseUrl, apiKey: local.keys.signup });
    for (let i = 0; i < 5; i++) await vault.fileSignupRequest({ website: `pending${i}.com`, email: 'jane@example.com' });
    const done = await run(process.execPath, ['example.mjs'], folder, { PATH: process.env.PATH }, 30_000);
    expect(done.stderr).toBe('');
    expect(done.stdout).toBe("logins for this page: [ 'acme' ]\nfive requests already await the account holder\n");
    expect(done.code).toBe(0);
  });
});
