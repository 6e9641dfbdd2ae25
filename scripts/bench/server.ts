// One server of the benchmark, run as a child process (pinned to its own core by scripts/bench.ts).
// Usage: node --import tsx scripts/bench/server.ts raw|express|express-validated|reference, settings in BENCH_* variables
// (and VAULT_LIMITS, read as main.ts reads it).
// It reports on fd 3, one JSON line, when it listens; it exits when its stdin closes, so a bench that
// dies never leaves a server behind. Request logs of the reference server go to stdout, which the
// bench points at /dev/null: the logging cost stays in the measurement, as in a deployment.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import express from 'express';

export interface ServerReady {
  /** The reference's demo account (a second replica on the same database is handed it). */
  demo?: { accountId: string; keys: { agent: string; signup: string } };
  port: number;
  /** Date.now() when the socket listened, for the time to first response. */
  listeningAt: number;
  /** Milliseconds spent in ready() before listening (reference server only). */
  warmMs?: number;
  /** The demo account's catalog key (reference server only). */
  key?: string;
  /** Milliseconds from loading the registry release to listening (reference server only): the start-up that depends on the release. */
  startMs?: number;
  /** The keys of the scale section's accounts (BENCH_SCALE set). */
  scale?: import('./scale-data.js').ScaleKeys;
}

const kind = process.argv[2];
const env = process.env;

function announce(server: Server, extra: Omit<ServerReady, 'port' | 'listeningAt'> = {}): void {
  server.listen(0, '127.0.0.1', () => {
    const ready: ServerReady = { port: (server.address() as { port: number }).port, listeningAt: Date.now(), ...extra };
    writeSync(3, `${JSON.stringify(ready)}\n`);
  });
}

const cleanups: (() => void)[] = [];
const leave = () => {
  for (const c of cleanups.splice(0)) c();
  process.exit(0);
};
process.stdin.on('end', leave);
process.on('SIGTERM', leave);
process.stdin.resume();

if (kind === 'raw') {
  const body = readFileSync(env.BENCH_BODY_FILE!);
  announce(
    createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    }),
  );
} else if (kind === 'express' || kind === 'express-validated') {
  // The reference server's own Express settings and its handler's last step (res.json of the catalog),
  // with nothing in between: the ratio to this is what the reference pipeline costs. The validated
  // kind adds express-openapi-validator as app.ts configures it, and nothing else.
  const catalog: unknown = JSON.parse(readFileSync(env.BENCH_BODY_FILE!, 'utf8'));
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (kind === 'express-validated') {
    const OpenApiValidator = await import('express-openapi-validator');
    app.use(
      OpenApiValidator.middleware({
        apiSpec: JSON.parse(readFileSync(env.BENCH_DOC!, 'utf8')),
        validateRequests: { allErrors: true },
        validateResponses: { allErrors: true },
        validateSecurity: false,
        validateApiSpec: false,
        ignoreUndocumented: true,
      }),
    );
  }
  app.get('/v1/tokens', (_req, res) => {
    res.status(200).json(catalog);
  });
  announce(createServer(app));
} else if (kind === 'reference') {
  const { openDb } = await import('../../server/store/db.js');
  const { Sealer } = await import('../../server/store/secrets.js');
  const { realClock } = await import('../../server/domain/clock.js');
  const { loadContract } = await import('../../server/contract.js');
  const { createApp } = await import('../../server/app.js');
  const { parseLimitOverrides } = await import('../../server/config.js');
  const { seedDemo } = await import('../../server/demo.js');
  const { createHttpServer, httpSettings } = await import('../../server/http/server.js');
  // A file database, as deployed (WAL; the limiter's counters are written on every request), or
  // the PostgreSQL database of the bench's PostgreSQL section (BENCH_DATABASE_URL), where a second
  // replica finds the demo account the first seeded (BENCH_DEMO) and the same master key.
  let db: import('../../server/store/db.js').Db;
  if (env.BENCH_DATABASE_URL) {
    const { openPostgres } = await import('../../server/store/postgres.js');
    db = await openPostgres({ url: env.BENCH_DATABASE_URL });
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'vault-bench-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    db = openDb(join(dir, 'vault.db'));
  }
  const store = db;
  cleanups.unshift(() => void store.close());
  const masterKey = env.BENCH_MASTER_KEY ? Buffer.from(env.BENCH_MASTER_KEY, 'hex') : randomBytes(32);
  const sealer = new Sealer(masterKey);
  const demo = env.BENCH_DEMO ? (JSON.parse(env.BENCH_DEMO) as Awaited<ReturnType<typeof seedDemo>>) : await seedDemo(db, sealer, realClock.now());
  // The scale section: `small` adds a written login and another account to the demo data, `large`
  // also an account at the sizes the specification allows, and a registry release of its own.
  let scale: import('./scale-data.js').ScaleKeys | undefined;
  if (env.BENCH_SCALE === 'small' || env.BENCH_SCALE === 'large') {
    const { seedScale } = await import('./scale-data.js');
    scale = await seedScale(db, sealer, realClock.now(), env.BENCH_SCALE === 'large', { accountId: demo.accountId, ...demo.keys });
  }
  const contract = loadContract(env.BENCH_DOC || undefined);
  const { loadRelease } = await import('../../server/domain/registry.js');
  const startAt = performance.now();
  // The deployment setting main.ts reads, with the same parser: limits stay on, only their values change.
  const limitOverrides = parseLimitOverrides(env.VAULT_LIMITS, new Set(contract.limits.keys()));
  const app = createApp({
    db,
    clock: realClock,
    masterKey,
    contract,
    // The scale section writes through the back office too (a login added and removed).
    config: { validateResponses: env.BENCH_VALIDATE_RESPONSES !== '0', limitOverrides, ...(env.BENCH_ADMIN_TOKEN ? { adminToken: env.BENCH_ADMIN_TOKEN } : {}) },
    release: loadRelease(contract, env.BENCH_REGISTRY_FILE || undefined),
  });
  const started = performance.now();
  if (env.BENCH_COLD !== '1') await app.ready();
  const warmMs = Math.round(performance.now() - started);
  // The HTTP server main.ts runs the app on: its timeouts and header cap, its answers of the HTTP
  // layer, and requests born with the app's prototypes.
  const server = createHttpServer(httpSettings(contract, limitOverrides));
  server.serve(app);
  announce(server, { warmMs, key: demo.keys.agent, demo, startMs: Math.round(performance.now() - startAt), ...(scale ? { scale } : {}) });
} else {
  process.stderr.write(`bench server: unknown kind "${kind}" (raw, express, express-validated or reference)\n`);
  process.exit(2);
}
