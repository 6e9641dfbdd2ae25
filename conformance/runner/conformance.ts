import { readFileSync } from 'node:fs';
import { dirname, join, relative, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { AccountHolderDriver } from '../drivers/driver.js';
import type { Case } from './case.js';
import type { Judgement } from './basis.js';
import { lintCatalogue, selectCases } from './catalogue.js';
import { Canaries } from './canaries.js';
import type { RunEnvironment } from './context.js';
import { ApiDocument } from './document.js';
import { loadDriver } from './driver-loader.js';
import { Connection } from './http.js';
import { KnownDeviations } from './known-deviations.js';
import { Limits } from './limits.js';
import { BACK_OFFICE_DRIVER, UsageError } from './options.js';
import type { CaseResult } from './outcome.js';
import { preflight } from './preflight.js';
import type { Judge } from './checks.js';
import { runCases, type CaseDetail } from './run.js';
import { Schemas } from './schemas.js';
import { Secrets } from './secrets.js';
import type { Settings } from './settings.js';
import { Throttle } from './throttle.js';
import { signalExitCode, type Stop } from './interruption.js';
import { harFile, Recording } from './har.js';
import { harMask } from './har-masking.js';
import { AccountLedger, leftoverLines } from './ledger.js';
import { WebhookHub } from './webhook-receiver.js';
import { provideWebhooks } from './webhook-setup.js';
import { ConsoleReporter, verdictOf, type Output } from './report/console.js';
import { contractCoverage, coverageMarkdown, coverageTotals, type CoverageRow } from './report/coverage.js';
import { junitXml } from './report/junit.js';
import { jsonReport } from './report/json.js';
import { htmlReport } from './report/html.js';
import { checkReportPaths, writeReport } from './report/paths.js';
import { count, tally, type Scope } from './report/tally.js';
import type { ExitCode, ReportInput } from './report/input.js';
import { listing } from './report/listing.js';
import { changedOperationsReport } from './report/contract-diff.js';
import { requirementRows, requirementTotals, requirementsLine } from './report/requirements.js';
import { generationNotStarted, generationReport, runGeneration } from './generate/run.js';
import type { GenerationSummary } from './generate/summary.js';
import { generatedResults } from './generate/results.js';
import { exitLine } from './report/exit-line.js';

export interface RunSummary {
  generation?: GenerationSummary;
  judgement: Judgement;
  exitCode: ExitCode;
  results: CaseResult[];
  coverage: CoverageRow[];
  durationMs: number;
  seed: number;
  manualClock: boolean;
}

export function runnerVersion(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, '..', 'package.json'), join(here, '..', '..', 'package.json')]) {
    try {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@credential-vault/conformance') return pkg.version ?? '0.0.0';
    } catch {
      // Try the next place the package file may be.
    }
  }
  return '0.0.0';
}

/** The cases to run, made from the document, and the documented triples no case can exercise, with why. */
export interface Catalogue {
  cases(doc: ApiDocument): Case[];
  ineligible: Record<string, string>;
}

/** How to reach this run's driver again, for deleting what it left: the options, never their values. */
function driverCommand(settings: Settings): string {
  const module = settings.driver?.module === BACK_OFFICE_DRIVER ? BACK_OFFICE_DRIVER : relativeTo(settings.driver?.module ?? '');
  const options = Object.keys(settings.driver?.options ?? {}).map((name) => `--driver-option ${name}=…`);
  return ['--base-url', settings.baseUrl, '--driver', module, ...options].join(' ');
}

/** A report's path as the user would type it: relative to the working folder when it is inside it. */
function relativeTo(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/** Loads the document and the catalogue, and refuses a catalogue that breaks its own rules. */
export function loadCatalogue(documentFile: string, catalogue: Catalogue): { doc: ApiDocument; cases: Case[] } {
  const doc = ApiDocument.load(documentFile);
  const cases = catalogue.cases(doc);
  const problems = lintCatalogue(cases, doc);
  if (problems.length > 0) throw new Error(`the case catalogue breaks its rules:\n  ${problems.join('\n  ')}`);
  return { doc, cases };
}

/** The two views every response is checked against: the whole document, and the specification's rules alone. */
function judgeOf(judgement: Judgement, doc: ApiDocument, schemas: Schemas): Judge {
  const view = doc.specView();
  return { judgement, reference: { view: 'reference', doc, schemas }, spec: { view: 'spec', doc: view, schemas: new Schemas(view) } };
}

/** The selection options given, as the reports name them when they say what was left out. */
function selectedBy(settings: Settings): string[] {
  return [
    settings.only.length > 0 ? '--only' : '',
    settings.skip.length > 0 ? '--skip' : '',
    settings.sections.length > 0 ? '--section' : '',
    settings.level === 'must' ? '--level must' : '',
    settings.tags.length > 0 ? '--tag' : '',
  ].filter(Boolean);
}

/** 1 on a failure, 3 on an error, 4 when cases could not run for a missing capability (unless accepted), else 0. */
function exitCodeOf(results: CaseResult[], capabilityMissing: number, acceptIncomplete: boolean): ExitCode {
  const verdicts = results.map(verdictOf);
  if (verdicts.some((v) => v === 'failed' || v === 'unexpected-pass')) return 1;
  if (verdicts.includes('error')) return 3;
  if (capabilityMissing > 0 && !acceptIncomplete) return 4;
  return 0;
}

/** The report files asked for, each with the option that names it and the function that writes it. */
const REPORTS: { option: string; file: (s: Settings) => string | undefined; render: (input: ReportInput) => string }[] = [
  { option: '--json', file: (s) => s.json, render: jsonReport },
  { option: '--junit', file: (s) => s.junit, render: junitXml },
  { option: '--coverage', file: (s) => s.coverage, render: (input) => input.secrets.mask(coverageMarkdown(input.coverage, input.settings.judgement, input.results, input.interrupted)) },
  { option: '--html', file: (s) => s.html, render: htmlReport },
  { option: '--har', file: (s) => s.har, render: (input) => harFile(input.recording!, input, input.operationOf ?? (() => undefined), harMask(input.secrets, input.canaries)) },
];

/** One run: select, check the target, run, report. Usage and configuration problems throw UsageError. */
export async function runConformance(settings: Settings, out: Output, catalogue: Catalogue, stop?: Stop): Promise<RunSummary> {
  const started = performance.now();
  let loaded: { doc: ApiDocument; cases: Case[] };
  try {
    loaded = loadCatalogue(settings.document, catalogue);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { doc, cases: all } = loaded;
  let limits: Limits;
  try {
    limits = new Limits(doc, settings.limits);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const cases = selectCases(all, settings);
  if (cases.length === 0 && !settings.generate) throw new UsageError('no case matches --only, --skip, --section and --level');
  if (settings.list) {
    out.write(listing(cases, settings.spend));
    if (settings.contractDiff) out.write(changedOperationsReport(settings.contractDiff, all));
    return { exitCode: 0, results: [], coverage: [], durationMs: 0, seed: settings.seed, manualClock: false, judgement: settings.judgement };
  }
  const known = settings.expectFail ? KnownDeviations.load(settings.expectFail) : new KnownDeviations();
  const stale = known.unmatched(all.map((c) => c.id));
  if (stale.length > 0) throw new UsageError(`${known.file} lists ${stale.join(', ')}, which match no case of the catalogue`);
  // Before the driver loads and before the first request: a run is never lost at its end to a path.
  checkReportPaths(REPORTS.map((r) => ({ option: r.option, file: r.file(settings) })));
  const startedAt = new Date();

  let driver: AccountHolderDriver | undefined;
  let ledger: AccountLedger | undefined;
  const hub = new WebhookHub(settings.webhooks.receiver);
  const connection = new Connection(settings.connection, [settings.baseUrl, settings.proxyOrigin]);
  // Recorded from the first request, the start-up probe's, so the file shows all the run sent.
  const recording = settings.har ? new Recording() : undefined;
  if (recording) connection.watch((sent) => recording.record(sent));
  const operations = new WeakMap<object, string>();
  try {
    ledger = settings.driver ? new AccountLedger(await loadDriver(settings.driver, settings.baseUrl, connection)) : undefined;
    driver = ledger?.driver;
    const { manualClock } = await preflight(settings, driver, connection, (line) => out.write(line), stop);
    const secrets = new Secrets();
    for (const [role, key] of Object.entries(settings.keys)) secrets.add(key, `API key given as ${role}`);
    secrets.add(settings.driver?.options['admin-token'], 'admin token');
    for (const [value, label] of connection.secrets()) secrets.add(value, label);
    const schemas = new Schemas(doc);
    const env: RunEnvironment = {
      baseUrl: settings.baseUrl,
      proxyOrigin: settings.proxyOrigin,
      doc,
      judgement: settings.judgement,
      judge: judgeOf(settings.judgement, doc, schemas),
      schemas,
      limits,
      keys: settings.keys,
      connection,
      driver,
      manualClock,
      timeoutMs: settings.timeoutMs,
      throttle: new Throttle(settings.maxRate),
      canaries: new Canaries(),
      secrets,
      seed: settings.seed,
      runId: randomBytes(3).toString('hex'),
      stop,
      onExchange: recording
        ? (ex) => {
            if (ex.operationId) operations.set(ex.request, ex.operationId);
          }
        : undefined,
    };
    // The options win over what the driver declares, member by member.
    const declared = Object.fromEntries(Object.entries(settings.webhooks.signature).filter(([, v]) => v !== undefined));
    provideWebhooks(env, { hub, signature: { ...driver?.webhookSignature, ...declared } });
    if (settings.verbosity !== 'quiet') {
      out.write(
        `vault-conformance ${runnerVersion()} against ${settings.baseUrl}${connection.describe()} (document ${doc.version}; ${settings.generate?.only ? 'generation only' : count(cases.length, 'case')}; ` +
          `driver ${settings.driver ? settings.driver.module : 'none'}; ` +
          `${manualClock ? 'manual' : 'real'} clock; judged by ${settings.judgement === 'spec' ? 'the specification' : 'the reference'}; ${settings.spend ? 'spending allowed' : 'safe: no spending'}; seed ${settings.seed})\n`,
      );
    }
    const byId = new Map(all.map((c) => [c.id, c]));
    const details = new Map<string, CaseDetail>();
    const reporter = new ConsoleReporter(out, cases.length, byId, secrets, settings.verbosity);
    const results = await runCases(settings.generate?.only ? [] : cases, env, {
      jobs: settings.jobs,
      repeat: settings.repeat,
      spend: settings.spend,
      caseTimeoutMs: settings.caseTimeoutMs,
      maxFailures: settings.maxFailures,
      knownReason: (r) => known.reasonFor(r.id, r.failure),
      stop,
      onResult: (r, detail) => {
        details.set(r.id, detail);
        reporter.result(r, detail);
      },
    });
    const generationOptions = settings.generate && { count: settings.generate.count, timeLimitMs: settings.generate.timeLimitMs, jobs: settings.jobs, spend: settings.spend, only: settings.only, skip: settings.skip };
    let generation: GenerationSummary | undefined;
    if (generationOptions) {
      generation = stop?.signal
        ? generationNotStarted(env, generationOptions, stop.signal)
        : await runGeneration(env, { ...generationOptions, stop, progress: settings.verbosity === 'quiet' ? undefined : (line) => out.write(`${line}\n`) });
    }
    // Each generated property is a result like a case's: printed, counted and reported with them.
    const generated = generation ? generatedResults(generation, settings.seed, settings.generate!.count) : undefined;
    for (const c of generated?.cases ?? []) byId.set(c.id, c);
    for (const r of generated?.results ?? []) {
      const reason = r.state === 'failed' || r.state === 'passed' ? known.reasonFor(r.id, r.failure) : undefined;
      if (reason) r.known = reason;
      const detail = generated!.details.get(r.id)!;
      details.set(r.id, detail);
      reporter.result(r, detail);
    }
    const reported = { cases: [...cases, ...(generated?.cases ?? [])], results: [...results, ...(generated?.results ?? [])] };
    const coverage = contractCoverage(doc, cases, results, catalogue.ineligible);
    const durationMs = performance.now() - started;
    const scope: Scope = { catalogue: settings.generate?.only ? 0 : all.length, selectedBy: selectedBy(settings), generated: new Set(generated?.cases.map((c) => c.id)) };
    const counts = tally(reported.results, scope);
    const interrupted = stop?.signal;
    if (reported.results.length > 0 || interrupted) out.write(reporter.summary(reported.results, { tally: counts, judgement: settings.judgement, acceptIncomplete: settings.acceptIncomplete, interrupted }));
    if (generation) out.write(generationReport(generation, settings.seed));
    const totals = coverageTotals(coverage);
    if (results.length > 0) {
      out.write(
        `contract coverage: ${totals.exercised} of ${totals.documented} documented (operation, status, code) exercised; ${totals.notTestable} not testable; ${totals.notExercised} not exercised here\n`,
      );
      out.write(`${requirementsLine(requirementTotals(requirementRows(cases, results)))}\n`);
    }
    if (settings.contractDiff) out.write(changedOperationsReport(settings.contractDiff, all));
    out.write(`time ${(durationMs / 1000).toFixed(1)} s; replay with --seed ${settings.seed}\n`);
    const leftBehind = (await ledger?.settle()) ?? [];
    for (const line of leftoverLines(leftBehind, driverCommand(settings))) out.write(`${secrets.mask(line)}\n`);
    let exitCode: ExitCode = interrupted ? signalExitCode(interrupted) : exitCodeOf(reported.results, counts.notRun.capability, settings.acceptIncomplete);
    const input: ReportInput = { settings, doc, cases: reported.cases, results: reported.results, details, coverage, tally: counts, exitCode, startedAt, durationMs, manualClock, secrets, version: runnerVersion(), generation, interrupted, recording, operationOf: (request) => operations.get(request), canaries: env.canaries, leftBehind };
    const written: string[] = [];
    for (const report of REPORTS) {
      const file = report.file(settings);
      if (!file) continue;
      const problem = writeReport(report.option, file, report.render(input));
      if (!problem) {
        written.push(`${report.option.slice(2)} ${relativeTo(file)}`);
        continue;
      }
      out.write(`${problem}\n`);
      // A failure's verdict and a signal's stand; otherwise a report the run could not keep is a run not completed.
      if (exitCode === 0 || exitCode === 4) exitCode = 3;
    }
    if (written.length > 0) out.write(`reports: ${written.join(', ')}\n`);
    out.write(`${exitLine(exitCode, counts, settings.acceptIncomplete)}\n`);
    return { exitCode, results: reported.results, coverage, durationMs, seed: settings.seed, manualClock, generation, judgement: settings.judgement };
  } finally {
    await hub.close();
    await driver?.close?.();
    connection.close();
  }
}
