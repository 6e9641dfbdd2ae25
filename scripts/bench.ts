// npm run bench [-- --duration 3 --rounds 7 --connections 50 --warmup 1 --extra-paths 200 --reads 50 --only main|scale|postgres --seam]; --help lists the options.
//
// Load-tests GET /v1/tokens of the reference server against baselines measured in the same run:
// raw node:http and a bare Express route serving the same catalog bytes, and Prism mocking the
// document (silent, and at its default verbosity). Servers run in child processes on one core, the
// load generator (autocannon) here on the other; variants alternate over rounds so drift touches
// all of them alike. Results are ratios to the baselines, never absolute thresholds. Loopback
// only; every process it starts is stopped. Any non-2xx answer makes the run invalid (exit 1).
// The scale section (scripts/bench/scale.ts) then runs the recipe lookup, the index, the catalog,
// reads right after writes and a filing at demo size and at the sizes the specification allows.
// The PostgreSQL section (scripts/bench/postgres.ts) runs the catalog read, the lookup and a filing
// on SQLite and on PostgreSQL, one replica against two, and a read after a write on another replica.
// Not part of `npm test`.
import autocannon from 'autocannon';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { withExtraPaths } from './bench/extra-paths.js';
import { get, pinSelf, ROOT, sampleMemory, startBenchServer, startPrism, treeCpuMicros, type Running } from './bench/processes.js';
import { lookupMicros } from './bench/lookup.js';
import { runScale } from './bench/scale.js';
import { formatPostgres, runPostgres } from './bench/postgres.js';
import { formatScale } from './bench/scale-report.js';
import { SEAM_PARTS, SEAM_VARIABLE } from '../server/http/framework/seam.js';
import { formatReport, VARIANT_IDS, variantLabels, type Lookup, type Measured, type VariantId } from './bench/report.js';

const USAGE = `Usage: npm run bench [-- options]

Load-tests GET /v1/tokens of the reference server against raw node:http, a bare Express route,
Express with express-openapi-validator and Prism (silent and at its default verbosity), all in one
run, and prints req/s, latency, peak RSS and time to first response as ratios to those baselines,
with the targets they are held to. Writes dist/bench/report.md. Needs "npm run bundle" first.

Options:
  --duration <s>       seconds per round and variant (default 3)
  --rounds <n>         rounds; variants take turns within each round (default 7)
  --connections <n>    concurrent connections of the load generator (default 50)
  --warmup <s>         seconds of load per variant before the rounds (default 1)
  --extra-paths <n>    documented paths added for the "+N paths" variant (default 200)
  --reads <n>          scale section: reads timed one at a time per kind, size and round (default 50)
  --only <section>     run only "main" (GET /v1/tokens against the baselines), "scale" or "postgres"
  --seam               main section: also the reference with the framework seam off, and with each
                       of its parts off alone (VAULT_FRAMEWORK_SEAM; docs/server.md)
  -h, --help           print this and exit`;

const OPTIONS = {
  duration: { type: 'string', default: '3' },
  rounds: { type: 'string', default: '7' },
  connections: { type: 'string', default: '50' },
  warmup: { type: 'string', default: '1' },
  'extra-paths': { type: 'string', default: '200' },
  reads: { type: 'string', default: '50' },
  only: { type: 'string' },
  seam: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function usageError(message: string): never {
  console.error(`bench: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let args: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
try {
  args = parseArgs({ options: OPTIONS }).values;
} catch (e) {
  usageError((e as Error).message);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const number = (name: keyof typeof OPTIONS, min: number, whole: boolean) => {
  const n = Number(args[name]);
  if (!Number.isFinite(n) || n < min || (whole && !Number.isInteger(n))) {
    usageError(`--${name} must be ${whole ? 'a whole number' : 'a number'} of at least ${min}, got "${String(args[name])}"`);
  }
  return n;
};
const settings = {
  duration: number('duration', 1, false),
  rounds: number('rounds', 1, true),
  connections: number('connections', 1, true),
  warmup: number('warmup', 0, false),
  extraPaths: number('extra-paths', 0, true),
  reads: number('reads', 1, true),
};
if (args.only !== undefined && !['main', 'scale', 'postgres'].includes(args.only)) usageError(`--only must be "main", "scale" or "postgres", got "${args.only}"`);
const sections = { main: args.only === undefined || args.only === 'main', scale: args.only === undefined || args.only === 'scale', postgres: args.only === undefined || args.only === 'postgres' };

// Plan limits would refuse almost every request of a load test; the deployment setting raises
// them for the bench account. The limiter still runs and writes its counters on every request.
const LIMITS = 'catalog-per-key=1000000000,catalog-per-account=1000000000';
const CATALOG = '/v1/tokens';
const CATALOG_FOR_PAGE = `/v1/tokens?url=${encodeURIComponent('https://www.acme.co.uk/checkout')}`;
// A path with a parameter that sorts after the extra paths: the lookup's worst case.
const SIGNUP_REQUEST = '/v1/signup-requests/bench-token';

interface Variant {
  id: string;
  label: string;
  server: Running;
  path: string;
  headers: Record<string, string>;
}

/** The bench's --seam variants: the reference with the framework seam off, and with each of its parts off alone. */
const SEAM_VARIANTS: { label: string; value: string }[] = [
  { label: 'reference, seam off', value: 'off' },
  ...SEAM_PARTS.map((part) => ({ label: `reference, seam on but ${part}`, value: `off:${part}` })),
];

const servers: Running[] = [];
const work = mkdtempSync(join(tmpdir(), 'vault-bench-run-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

async function main(): Promise<number> {
  const pinned = pinSelf();
  const machine = `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${pinned ? 'load generator on core 0, servers on core 1 (taskset)' : 'no taskset: processes not pinned'}`;
  const texts: string[] = [];
  let valid = true;
  if (sections.main) {
    const report = await mainSection(machine);
    texts.push(report.text);
    valid = report.valid;
  }
  if (sections.scale) {
    log(`scale: ${settings.rounds} rounds of ${settings.duration} s per load, ${settings.reads} timed reads per kind`);
    const measured = await runScale(work, settings, (s) => servers.push(s), log);
    await stopAll();
    texts.push([...(sections.main ? [] : [machine, '']), ...formatScale(measured).lines].join('\n'));
  }
  if (sections.postgres) {
    log(`postgres: ${settings.rounds} rounds of ${settings.duration} s per load and store, ${settings.reads} reads after a write each`);
    const measured = await runPostgres(work, settings, (s) => servers.push(s), log);
    await stopAll();
    texts.push([...(sections.main || sections.scale ? [] : [machine, '']), ...formatPostgres(measured, settings)].join('\n'));
  }
  const text = texts.join('\n\n');
  console.log(text);
  const out = join(ROOT, 'dist', 'bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'report.md'), `${text}\n`);
  return valid ? 0 : 1;
}

async function mainSection(machine: string): Promise<{ text: string; valid: boolean }> {
  const bundled = join(ROOT, 'dist', 'openapi.json');
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(readFileSync(bundled, 'utf8'));
  } catch {
    throw new Error('dist/openapi.json is missing; run "npm run bundle" first');
  }
  const extraDoc = join(work, 'openapi-extra-paths.json');
  const extraDocument = withExtraPaths(doc, settings.extraPaths);
  writeFileSync(extraDoc, JSON.stringify(extraDocument));

  log('timing the validator route lookup');
  const lookups: Lookup[] = [];
  for (const path of [CATALOG, SIGNUP_REQUEST]) {
    const [base, extra] = await lookupMicros([doc, extraDocument], path);
    lookups.push({ path, base: base!, extra: extra! });
  }

  const started = async (server: Promise<Running>) => {
    const s = await server;
    servers.push(s);
    return s;
  };
  const reference = (name: string, env: Record<string, string>) =>
    started(startBenchServer(name, 'reference', { VAULT_LIMITS: LIMITS, ...env })).then(firstResponse);

  log('starting servers (one at a time, so each start-up has the server core to itself)');
  const validated = await reference('reference', { BENCH_VALIDATE_RESPONSES: '1' });
  const auth = { authorization: `Bearer ${validated.ready!.key}` };
  const catalog = await get(validated.base, CATALOG, auth);
  if (catalog.status !== 200) throw new Error(`reference: GET ${CATALOG} answered ${catalog.status}`);
  const bodyFile = join(work, 'catalog.json');
  writeFileSync(bodyFile, catalog.body);

  const unvalidated = await reference('reference, responses not validated', { BENCH_VALIDATE_RESPONSES: '0' });
  const extra = await reference(`reference, ${settings.extraPaths} extra paths`, { BENCH_VALIDATE_RESPONSES: '1', BENCH_DOC: extraDoc });
  // Without ready(): only its time to first response is of interest, so it stops at once.
  const cold = await reference('reference without ready()', { BENCH_VALIDATE_RESPONSES: '1', BENCH_COLD: '1' });
  await cold.stop();
  const raw = await started(startBenchServer('node:http', 'raw', { BENCH_BODY_FILE: bodyFile })).then(firstResponse);
  const bare = await started(startBenchServer('Express', 'express', { BENCH_BODY_FILE: bodyFile })).then(firstResponse);
  const bareValidated = await started(
    startBenchServer('Express + validator', 'express-validated', { BENCH_BODY_FILE: bodyFile, BENCH_DOC: bundled }),
  ).then(firstResponse);
  const keyed = (s: Running) => ({ authorization: `Bearer ${s.ready!.key}` });
  const seamVariants: Variant[] = [];
  if (args.seam) {
    for (const { label, value } of SEAM_VARIANTS) {
      const s = await reference(label, { BENCH_VALIDATE_RESPONSES: '1', [SEAM_VARIABLE]: value });
      seamVariants.push({ id: `seam:${value}`, label, server: s, path: CATALOG, headers: keyed(s) });
    }
  }
  const prismProbe = { path: CATALOG, headers: auth };
  const prism = await started(startPrism('Prism, silent', join(ROOT, 'dist', 'openapi.yaml'), prismProbe, 'silent'));
  const prismLogging = await started(startPrism('Prism, default logging', join(ROOT, 'dist', 'openapi.yaml'), prismProbe, 'default'));

  const label = variantLabels(settings.extraPaths);
  const target: Record<VariantId, Omit<Variant, 'id' | 'label'>> = {
    raw: { server: raw, path: CATALOG, headers: {} },
    express: { server: bare, path: CATALOG, headers: {} },
    'express-validated': { server: bareValidated, path: CATALOG, headers: {} },
    prism: { server: prism, path: CATALOG, headers: auth },
    'prism-logging': { server: prismLogging, path: CATALOG, headers: auth },
    ref: { server: validated, path: CATALOG, headers: keyed(validated) },
    'ref-url': { server: validated, path: CATALOG_FOR_PAGE, headers: keyed(validated) },
    'ref-novalidate': { server: unvalidated, path: CATALOG, headers: keyed(unvalidated) },
    'ref-novalidate-url': { server: unvalidated, path: CATALOG_FOR_PAGE, headers: keyed(unvalidated) },
    'ref-extra': { server: extra, path: CATALOG, headers: keyed(extra) },
  };
  const variants: Variant[] = [...VARIANT_IDS.map((id) => ({ id, label: label[id], ...target[id] })), ...seamVariants];

  const stopSampling = sampleMemory(servers.filter((s) => s !== cold));
  const measured = new Map<string, Measured>(
    variants.map((v) => [v.id, { id: v.id, label: v.label, server: v.server, rounds: [], refused: new Map() }]),
  );
  const estimate = variants.length * (settings.warmup + settings.rounds * settings.duration);
  log(`load: ${variants.length} variants, ${settings.rounds} rounds of ${settings.duration} s, ${settings.connections} connections (about ${Math.ceil(estimate)} s)`);
  for (const v of variants) await load(v, settings.warmup, measured.get(v.id)!, false);
  for (let round = 0; round < settings.rounds; round++) {
    // Each round starts one variant later, so no variant always runs first or last.
    const shift = round % variants.length;
    for (const v of [...variants.slice(shift), ...variants.slice(0, shift)]) await load(v, settings.duration, measured.get(v.id)!, true);
    log(`round ${round + 1}/${settings.rounds} done`);
  }
  stopSampling();
  await stopAll();

  const report = formatReport({
    measured: [...measured.values()],
    cold,
    lookups,
    paths: Object.keys(doc.paths as object).length,
    settings,
    machine,
  });
  return report;
}

async function load(v: Variant, seconds: number, into: Measured, counted: boolean): Promise<void> {
  const cpuBefore = treeCpuMicros(v.server.pid);
  const result = await autocannon({
    url: `${v.server.base}${v.path}`,
    headers: v.headers,
    connections: settings.connections,
    duration: seconds,
    timeout: 10,
  });
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    if (!code.startsWith('2')) into.refused.set(code, (into.refused.get(code) ?? 0) + (stats.count ?? 0));
  }
  if (result.errors > 0) into.refused.set('connection errors', (into.refused.get('connection errors') ?? 0) + result.errors);
  if (counted) {
    into.rounds.push({
      requests: result.requests.total,
      seconds: result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      cpuMicros: treeCpuMicros(v.server.pid) - cpuBefore,
    });
  }
}

async function firstResponse(s: Running): Promise<Running> {
  const headers: Record<string, string> = s.ready?.key ? { authorization: `Bearer ${s.ready.key}` } : {};
  const answer = await get(s.base, CATALOG, headers);
  s.firstResponseMs = Date.now() - s.ready!.listeningAt;
  if (answer.status !== 200) throw new Error(`${s.name}: first GET ${CATALOG} answered ${answer.status}`);
  return s;
}

async function stopAll(): Promise<void> {
  await Promise.all(servers.map((s) => s.stop()));
}

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

// Ctrl-C: exit through the 'exit' handler of processes.ts, which stops every server started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error(`bench: ${(e as Error).message}`);
} finally {
  await stopAll();
}
process.exit(code);
