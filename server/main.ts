import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { assertWritable, databaseExists, openDb, ReadOnlyDatabaseError, SchemaTooNewError, type Db, type SqliteStore } from './store/db.js';
import { openPostgres, postgresHasSchema } from './store/postgres.js';
import { Sealer, verifyMasterKey, verifyMasterKeyNow, WrongMasterKeyError } from './store/secrets.js';
import { ManualClock, realClock, SharedManualClock, type Clock } from './domain/clock.js';
import { advanceStoredClock, readStoredClock, startStoredClock } from './store/clock.js';
import { loadContract } from './contract.js';
import { parseLimitOverrides } from './config.js';
import { loadMasterKey, MissingMasterKeyError } from './master-key.js';
import { createApp } from './app.js';
import { describeDemo, seedDemo, type DemoAccount } from './demo.js';
import { RecipeRegistry } from './domain/recipes.js';
import { watchNewLinks } from './store/outbox.js';
import { outboxLine } from './outbox.js';
import { loadRelease, type Release } from './domain/registry.js';
import { createHttpServer, httpSettings } from './http/server.js';
import { jsonLog } from './http/logging.js';
import { seamParts } from './http/framework/seam.js';

/**
 * Reads settings, listens, then opens the store. Every start-up failure is one line and a non-zero
 * exit. The port is bound before anything in the data directory is touched, so a start that fails
 * on a port in use leaves no trace there.
 */

// Whatever the caller's umask, the data directory is created 0700 and the database, its WAL files,
// the key file and local.json 0600: they hold the account holder's data.
process.umask(0o077);

interface LocalConfig extends DemoAccount {
  baseUrl: string;
  docsUrl: string;
  adminToken: string;
}

function fail(message: string): never {
  process.stderr.write(`credential-vault: ${message}\n`);
  process.exit(1);
}

const env = process.env;
const args = new Set(process.argv.slice(2));
const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const dataDir = resolve(env.VAULT_DATA_DIR ?? join(root, 'data'));
const dbPath = env.VAULT_DB_PATH ?? join(dataDir, 'vault.db');
// VAULT_DATABASE_URL=postgres://...: the store is that PostgreSQL database, shared by every replica
// started with it (docs/postgres.md); without it, SQLite in the data directory.
const databaseUrl = env.VAULT_DATABASE_URL || undefined;
if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) fail('VAULT_DATABASE_URL must be a postgres:// URL');
/** The database's URL without its password, for messages. */
function describeUrl(url: string): string {
  const u = new URL(url);
  u.password = '';
  return u.toString();
}
const localFile = join(dataDir, 'local.json');
const demo = args.has('--demo');

let contract;
try {
  contract = loadContract();
} catch (e) {
  fail((e as Error).message);
}

// The recipe registry release (VAULT_REGISTRY_FILE, default: the newest in server/registry); a broken one stops the start.
let release: Release;
try {
  release = loadRelease(contract, env.VAULT_REGISTRY_FILE ? resolve(env.VAULT_REGISTRY_FILE) : undefined);
} catch (e) {
  fail((e as Error).message);
}

let limitOverrides: Record<string, number>;
try {
  limitOverrides = parseLimitOverrides(env.VAULT_LIMITS, new Set(contract.limits.keys()));
} catch (e) {
  fail((e as Error).message);
}

// VAULT_COUNT_REFUSED_REQUESTS=1: the other reading of section 8.1 item 4 (http/rate-limits.ts).
const countRefused = env.VAULT_COUNT_REFUSED_REQUESTS ?? '0';
if (countRefused !== '0' && countRefused !== '1') fail(`VAULT_COUNT_REFUSED_REQUESTS must be "0" or "1", got "${countRefused}"`);

// VAULT_WEBHOOKS_ALLOW_LOOPBACK=1: a webhook receiver on this machine (loopback, http:// too) may take
// deliveries, so an integrator can watch one arrive; on by default only in the demo (`npm start`).
const allowLoopback = env.VAULT_WEBHOOKS_ALLOW_LOOPBACK ?? (demo ? '1' : '0');
if (allowLoopback !== '0' && allowLoopback !== '1') fail(`VAULT_WEBHOOKS_ALLOW_LOOPBACK must be "0" or "1", got "${allowLoopback}"`);

// VAULT_FRAMEWORK_SEAM: the ways around Express and the validator (http/framework/seam.ts), all on by default.
try {
  seamParts();
} catch (e) {
  fail((e as Error).message);
}

// VAULT_CLOCK=manual (from now) or manual:<ISO time>: time moves only through the back office.
const clockSetting = env.VAULT_CLOCK ?? 'real';
const manualStart = clockSetting.startsWith('manual:') ? Date.parse(clockSetting.slice('manual:'.length)) : Date.now();
if (clockSetting !== 'real' && !clockSetting.startsWith('manual')) fail(`VAULT_CLOCK must be "real", "manual" or "manual:<ISO time>", got "${clockSetting}"`);
if (Number.isNaN(manualStart)) fail(`VAULT_CLOCK: cannot read the time in "${clockSetting}"`);
let clock: Clock = clockSetting.startsWith('manual') ? new ManualClock(manualStart) : realClock;

const port = Number(env.PORT ?? 8080);
const host = env.HOST ?? '127.0.0.1';
const settings = httpSettings(contract, limitOverrides);
const server = createHttpServer(settings, { log: jsonLog });
await new Promise<void>((listening) => {
  server.once('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EADDRINUSE') fail(`port ${port} on ${host} is in use; set PORT to another port`);
    fail(`cannot listen on ${host}:${port}: ${e.message}`);
  });
  server.listen(port, host, listening);
});

if (args.has('--reset')) {
  // A shared database is never wiped by one replica's flag: its owner drops and creates it.
  if (databaseUrl) fail('--reset starts the embedded store afresh; on PostgreSQL, drop and create the database instead (docs/postgres.md)');
  for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, localFile]) rmSync(f, { force: true });
}
try {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
} catch (e) {
  fail(`cannot create the data directory ${dataDir}: ${(e as Error).message}`);
}

let db: Db;
let sqliteStore: SqliteStore | undefined;
let sealer: Sealer;
let masterKey: Buffer;
try {
  if (databaseUrl) {
    // A database that holds data was written with a key: a missing key is then an error, not a new key.
    masterKey = loadMasterKey(env, dataDir, (await postgresHasSchema(databaseUrl)) ? describeUrl(databaseUrl) : undefined);
    const keySealer = (sealer = new Sealer(masterKey));
    db = await openPostgres({ url: databaseUrl, poolSize: Number(env.VAULT_DATABASE_POOL ?? 10), beforeMigrate: (d) => verifyMasterKey(d, keySealer) });
    await verifyMasterKey(db, sealer);
  } else {
    masterKey = loadMasterKey(env, dataDir, databaseExists(dbPath) ? dbPath : undefined);
    const keySealer = (sealer = new Sealer(masterKey));
    const sqlite = openDb(dbPath, { beforeMigrate: (d) => verifyMasterKeyNow(d, keySealer) });
    verifyMasterKeyNow(sqlite.sqlite, sealer);
    assertWritable(sqlite, dbPath);
    db = sqliteStore = sqlite;
  }
} catch (e) {
  if (e instanceof SchemaTooNewError || e instanceof WrongMasterKeyError || e instanceof MissingMasterKeyError || e instanceof ReadOnlyDatabaseError) fail(e.message);
  fail(`cannot open the database ${databaseUrl ? describeUrl(databaseUrl) : dbPath}: ${(e as Error).message}`);
}

// Replicas on one PostgreSQL database share a manual clock through it: the first to start sets its
// time, and moving it through any replica's back office moves it for all of them.
if (databaseUrl && clock instanceof ManualClock) {
  const shared = db;
  clock = new SharedManualClock(await startStoredClock(shared, manualStart), () => readStoredClock(shared), (ms) => advanceStoredClock(shared, ms));
}

// Registered before the banner: whoever reads the banner may stop the server at once. A stop
// drains (http/drain.ts): every request received is answered, then the database closes
// (checkpointing its WAL) after the last write. A second signal exits at once; every write
// acknowledged is committed already.
let stopping = false;
let stopWebhooks: () => Promise<void> | void = () => {};
const readiness = { draining: false };
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      jsonLog({ msg: 'stopped at once', signal });
      process.exit(1);
    }
    stopping = true;
    // A load balancer reading /_health/ready sends this replica nothing new from now on.
    readiness.draining = true;
    jsonLog({ msg: 'stopping', signal, drainSeconds: settings.drainMs / 1000 });
    void server.drain().then(async () => {
      // A refused request's count is taken back in the commit of the turn after its answer.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      // A webhook attempt still in flight is cut off here, and recorded so, while the database is open.
      await stopWebhooks();
      await db.close();
      jsonLog({ msg: 'stopped', signal });
      process.exit(0);
    });
  });
}

const previous: Partial<LocalConfig> = existsSync(localFile) ? JSON.parse(readFileSync(localFile, 'utf8')) : {};
const adminToken = env.VAULT_ADMIN_TOKEN ?? (demo ? (previous.adminToken ?? `adm_${randomBytes(18).toString('base64url')}`) : undefined);
const demoAccount: DemoAccount | undefined = demo ? (previous.accountId && previous.keys ? (previous as DemoAccount) : await seedDemo(db, sealer, clock.now())) : undefined;

const recipes = new RecipeRegistry({ db, clock, contract, log: jsonLog }, release);
const app = createApp({
  db,
  readiness,
  clock,
  masterKey,
  contract,
  recipes,
  config: {
    validateResponses: env.VAULT_VALIDATE_RESPONSES !== '0',
    adminToken,
    limitOverrides,
    countRefusedRequests: countRefused === '1',
    allowLoopbackWebhooks: allowLoopback === '1',
  },
});

stopWebhooks = () => app.webhooks.stop();

// The document is loaded before the banner, so that the first request does not wait for it.
await app.loaded();
const baseUrl = `http://${host}:${(server.address() as AddressInfo).port}`;
// The outbox, watching before the first request is served: links are credentials, so only a demo
// prints them, never in the request log, and only the demo account's. Other accounts are test
// accounts of the back office, which lists their links; a conformance run opens hundreds.
// The outbox watches the SQLite connection's own inserts; on PostgreSQL the back office lists the links.
if (demoAccount && sqliteStore) watchNewLinks(sqliteStore, sealer, demoAccount.accountId, (link) => process.stdout.write(`${outboxLine(contract, baseUrl, link)}\n`));
server.serve(app);
{
  const lines = [`credential-vault reference server listening on ${baseUrl}`, `  docs: ${baseUrl}/docs/`, `  database: ${databaseUrl ? describeUrl(databaseUrl) : dbPath}`];
  if (demoAccount) {
    const local: LocalConfig = { ...demoAccount, baseUrl, docsUrl: `${baseUrl}/docs/`, adminToken: adminToken! };
    writeFileSync(localFile, `${JSON.stringify(local, null, 2)}\n`, { mode: 0o600 });
    lines.push(
      `  demo account: ${demoAccount.accountId}`,
      `  demo key (catalog and recipes): ${demoAccount.keys.agent}`,
      `  demo key (with signup permission): ${demoAccount.keys.signup}`,
      `  back-office admin token: ${adminToken}`,
      `  back office docs: ${baseUrl}/docs/fixtures`,
      `  settings for the conformance runner and examples: ${localFile}`,
      ...await describeDemo(db, recipes, demoAccount.accountId),
      "  the demo account's account-holder links are printed below as they are sent; open one in a browser to decide",
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
// Validators compile after the banner, between requests: a request that comes first compiles only
// its own operation's, as the validator does on its own, instead of waiting for all of them.
void app.ready('while-serving').catch((e: unknown) => jsonLog({ msg: 'compiling the validators failed', error: (e as Error).message }));
