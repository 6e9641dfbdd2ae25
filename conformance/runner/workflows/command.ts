import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { Connection } from '../http.js';
import { parseArgs, UsageError } from '../options.js';
import { resolveSettings, type Settings } from '../settings.js';
import { defaultDocumentPath } from '../document.js';
import { preflight } from '../preflight.js';
import { Secrets } from '../secrets.js';
import { RunnerError } from '../errors.js';
import { replayOf } from '../report/replay.js';
import { xml } from '../report/junit.js';
import { checkReportPaths, writeReport } from '../report/paths.js';
import { count } from '../report/tally.js';
import type { Output } from '../report/console.js';
import type { Stop } from '../interruption.js';
import { deleteOpened, forgetDeleted, operationsOf, operationsReached, runWorkflow, StepFailure, type ArazzoFile, type Engine, type Sources } from './engine.js';

/**
 * `vault-conformance workflows`: the Arazzo workflows shipped with the runner, run with the
 * runner's own connection options (TLS files, `-H`, the proxy), keys from the environment, and its
 * care: what spends runs only with `--spend`, the workflow that moves the clock only on a manual
 * clock, an account a failed workflow opened is deleted, every key and token is masked, and the
 * report is JUnit as the runner's is.
 */

export const WORKFLOW_USAGE = `Usage: vault-conformance workflows [--workflow ID ...] [--page-url URL] [options of the runner]

Runs the Arazzo workflows shipped with the runner against the deployment, over the runner's own
connection: --base-url (or VAULT_CONFORMANCE_BASE_URL), --ca-cert, --client-cert, --client-key,
--insecure, -H, the proxy variables; the agent's key from VAULT_CONFORMANCE_KEY (or --key), the
back office's admin token from VAULT_ADMIN_TOKEN (or --admin-token); --spend, --junit,
--accept-incomplete, --timeout. Without --base-url, the local sandbox of data/local.json.

  --workflow ID   run only this workflow (repeatable)
  --page-url URL  the checkout page checkoutLookup reads (default: a page of the reference's demo registry)`;

const DEMO_PAGE = 'https://shop.globex.com/cart';

/** What an operation of a workflow costs, or needs, beyond a key: read by the runner, as it reads a case's costs. */
const SPENDS: Record<string, string> = {
  'vault.submitRecipe': 'a recipe contribution, public and permanent, and one of the account\'s 20 submissions a day',
};
const MOVES_CLOCK = 'backOffice.advanceClock';

export interface WorkflowOutcome {
  file: string;
  workflowId: string;
  state: 'passed' | 'failed' | 'error' | 'not-run';
  notRunKind?: 'choice' | 'capability';
  reason?: string;
  failure?: StepFailure;
  engine?: Engine;
  durationMs: number;
  leftBehind: string[];
}

function here(): string {
  return dirname(fileURLToPath(import.meta.url));
}

/** The workflow files: beside the built runner in the package, or the repository's. */
function workflowFiles(): string[] {
  const dirs = [join(here(), '..', '..', 'workflows'), join(here(), '..', '..', '..', 'openapi', 'workflows')];
  const dir = dirs.find((d) => existsSync(d));
  if (!dir) throw new UsageError('no Arazzo workflows found beside the runner');
  return readdirSync(dir).filter((f) => f.endsWith('.arazzo.yaml')).sort().map((f) => join(dir, f));
}

function sources(): Sources {
  const api = defaultDocumentPath();
  const backOffice = join(dirname(api), 'back-office.json');
  const load = (file: string) => operationsOf(JSON.parse(readFileSync(file, 'utf8')));
  return { vault: load(api), ...(existsSync(backOffice) ? { backOffice: load(backOffice) } : {}) };
}

function splitArgs(argv: string[]): { own: { workflows: string[]; pageUrl: string }; rest: string[] } {
  const own = { workflows: [] as string[], pageUrl: DEMO_PAGE };
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--workflow' || flag === '--page-url') {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`${flag} needs a value`);
      if (flag === '--workflow') own.workflows.push(value);
      else own.pageUrl = value;
    } else rest.push(arg);
  }
  return { own, rest };
}

/** Workflows another one runs as a step: set-ups, not stories of their own. */
function buildingBlocks(file: ArazzoFile): Set<string> {
  return new Set(file.workflows.flatMap((w) => w.steps.map((s) => s.workflowId).filter((id): id is string => id !== undefined)));
}

async function clockIsManual(settings: Settings, connection: Connection, srcs: Sources, adminToken: string): Promise<boolean> {
  const op = srcs.backOffice?.get('getClock');
  if (!op) return false;
  const res = await connection.send(connection.request({ method: op.method, url: `${settings.baseUrl}${op.path}`, headers: { accept: 'application/json', authorization: `Bearer ${adminToken}` } }), settings.timeoutMs);
  return res.status === 200 && (res.json as { manual?: unknown } | undefined)?.manual === true;
}

export async function runWorkflowsCommand(argv: string[], cwd: string, env: NodeJS.ProcessEnv, out: Output, stop?: Stop): Promise<number> {
  const { own, rest } = splitArgs(argv);
  if (rest.includes('--help')) {
    out.write(`${WORKFLOW_USAGE}\n`);
    return 0;
  }
  const settings = resolveSettings(parseArgs(rest), cwd, env);
  checkReportPaths([{ option: '--junit', file: settings.junit }]);
  const files = workflowFiles().map((f): ArazzoFile => ({ ...(parseYaml(readFileSync(f, 'utf8')) as Omit<ArazzoFile, 'file'>), file: basename(f) }));
  const known = files.flatMap((f) => f.workflows.map((w) => w.workflowId));
  for (const id of own.workflows) if (!known.includes(id)) throw new UsageError(`--workflow ${id}: no such workflow; the workflows are ${known.join(', ')}`);
  const connection = new Connection(settings.connection, [settings.baseUrl]);
  const secrets = new Secrets();
  const apiKey = settings.keys.key ?? settings.keys.signupKey;
  const adminToken = settings.driver?.options['admin-token'];
  secrets.add(apiKey, 'API key');
  secrets.add(adminToken, 'admin token');
  for (const [value, label] of connection.secrets()) secrets.add(value, label);
  const started = performance.now();
  const outcomes: WorkflowOutcome[] = [];
  try {
    await preflight({ ...settings, keys: apiKey ? { key: settings.keys.key } : {}, clock: 'auto' }, undefined, connection, (line) => out.write(line), stop);
    const srcs = sources();
    out.write(`vault-conformance workflows against ${settings.baseUrl}${connection.describe()} (${settings.spend ? 'spending allowed' : 'safe: no spending'})\n`);
    for (const file of files) {
      const blocks = buildingBlocks(file);
      for (const workflow of file.workflows) {
        const chosen = own.workflows.length > 0 ? own.workflows.includes(workflow.workflowId) : !blocks.has(workflow.workflowId);
        if (!chosen) continue;
        const outcome = await runOne(file, workflow.workflowId, { settings, connection, secrets, srcs, apiKey, adminToken, pageUrl: own.pageUrl, stop });
        outcomes.push(outcome);
        out.write(secrets.mask(lineOf(outcome)));
      }
    }
  } finally {
    connection.close();
  }
  const durationMs = performance.now() - started;
  const tallied = (state: WorkflowOutcome['state']) => outcomes.filter((o) => o.state === state).length;
  const missing = outcomes.filter((o) => o.state === 'not-run' && o.notRunKind === 'capability').length;
  const code = stop?.signal ? (stop.signal === 'SIGINT' ? 130 : 143) : tallied('failed') > 0 ? 1 : tallied('error') > 0 ? 3 : missing > 0 && !settings.acceptIncomplete ? 4 : 0;
  const left = outcomes.flatMap((o) => o.leftBehind);
  out.write(`\n${count(outcomes.length, 'workflow')}: ${tallied('passed')} passed, ${tallied('failed')} failed, ${tallied('error')} errors, ${tallied('not-run')} not run\n`);
  if (left.length > 0) out.write(`accounts left behind on the deployment: ${left.join(', ')}; delete them in its back office, or with vault-conformance --driver back-office --delete-accounts ${left.join(',')}\n`);
  if (settings.junit) {
    const problem = writeReport('--junit', settings.junit, junitOf(outcomes, settings, durationMs, code, secrets));
    out.write(problem ? `${problem}\n` : `reports: junit ${settings.junit}\n`);
  }
  out.write(`exit ${code}\n`);
  return code;
}

interface Run {
  settings: Settings;
  connection: Connection;
  secrets: Secrets;
  srcs: Sources;
  apiKey?: string;
  adminToken?: string;
  pageUrl: string;
  stop?: Stop;
}

async function runOne(file: ArazzoFile, workflowId: string, run: Run): Promise<WorkflowOutcome> {
  const base = { file: file.file, workflowId, durationMs: 0, leftBehind: [] as string[] };
  const reached = operationsReached(file, workflowId);
  if (run.stop?.signal) return { ...base, state: 'not-run', notRunKind: 'capability', reason: `not started: the run was interrupted by ${run.stop.signal}` };
  const spends = reached.map((op) => SPENDS[op]).find(Boolean);
  if (spends && !run.settings.spend) return { ...base, state: 'not-run', notRunKind: 'choice', reason: `spends ${spends}; run with --spend` };
  const backOffice = reached.some((op) => op.startsWith('backOffice.'));
  if (backOffice && !run.adminToken) return { ...base, state: 'not-run', notRunKind: 'capability', reason: 'the account holder acts through the back office: needs its admin token (VAULT_ADMIN_TOKEN or --admin-token)' };
  if (backOffice && !run.srcs.backOffice) return { ...base, state: 'not-run', notRunKind: 'capability', reason: 'the back office\'s document is not beside the runner' };
  if (reached.some((op) => op.startsWith('vault.')) && !run.apiKey && !backOffice) return { ...base, state: 'not-run', notRunKind: 'capability', reason: 'needs an agent\'s key (VAULT_CONFORMANCE_KEY or --key)' };
  if (reached.includes(MOVES_CLOCK) && !(await clockIsManual(run.settings, run.connection, run.srcs, run.adminToken!))) {
    return { ...base, state: 'not-run', notRunKind: 'capability', reason: 'moves the clock: needs a deployment with a manual clock (its clock is real)' };
  }
  const engine: Engine = { file, sources: run.srcs, connection: run.connection, baseUrl: run.settings.baseUrl, timeoutMs: run.settings.timeoutMs, secrets: run.secrets, exchanges: [], steps: [], opened: new Map() };
  const started = performance.now();
  const inputs = { apiKey: run.apiKey, adminToken: run.adminToken, pageUrl: run.pageUrl };
  let outcome: WorkflowOutcome;
  try {
    await runWorkflow(engine, workflowId, inputs);
    outcome = { ...base, state: 'passed', engine };
  } catch (e) {
    if (e instanceof StepFailure) outcome = { ...base, state: 'failed', failure: e, engine };
    else outcome = { ...base, state: 'error', reason: e instanceof RunnerError ? e.message : (e as Error).message, engine };
  }
  forgetDeleted(engine);
  outcome.leftBehind = await deleteOpened(engine);
  outcome.durationMs = performance.now() - started;
  return outcome;
}

function failureText(o: WorkflowOutcome): string {
  const f = o.failure;
  const ex = f?.exchange ?? o.engine?.exchanges.at(-1);
  const lines = [
    f ? `FAILED workflow ${o.workflowId} (${o.file}), step ${f.stepId}` : `ERROR workflow ${o.workflowId} (${o.file}): ${o.reason}`,
    ...(f ? [`Expected  ${f.expected}`, `Received  ${f.received}`] : []),
    ...(o.engine?.steps.length ? [`Steps     ${o.engine.steps.slice(-5).join('\n          ')}`] : []),
    ...(ex ? [`Response  ${ex.response.status} ${ex.response.statusText}`, `          ${ex.response.text.slice(0, 400)}`, `Replay    ${replayOf(ex)}`] : []),
  ];
  return lines.join('\n');
}

function lineOf(o: WorkflowOutcome): string {
  const time = `${(o.durationMs / 1000).toFixed(1)} s`;
  if (o.state === 'passed') return `PASS     ${o.workflowId} (${o.engine?.exchanges.length ?? 0} requests, ${time})\n`;
  if (o.state === 'not-run') return `NOT RUN  ${o.workflowId}: ${o.reason}\n`;
  return `${failureText(o)}\n\n`;
}

function junitOf(outcomes: WorkflowOutcome[], settings: Settings, durationMs: number, code: number, secrets: Secrets): string {
  const mask = (t: string) => xml(secrets.mask(t));
  const cases = outcomes.map((o) => {
    const open = `    <testcase classname="vault.workflows.${mask(o.file.replace(/\.arazzo\.yaml$/, ''))}" name="${mask(o.workflowId)}" time="${(o.durationMs / 1000).toFixed(3)}"`;
    if (o.state === 'passed') return `${open}/>`;
    if (o.state === 'not-run') return `${open}><skipped message="${mask(`not run (${o.notRunKind === 'choice' ? 'left out by choice' : 'missing capability'}): ${o.reason}`)}"/></testcase>`;
    const tag = o.state === 'failed' ? 'failure' : 'error';
    const message = o.failure ? o.failure.message : (o.reason ?? 'error');
    return `${open}><${tag} message="${mask(message)}" type="${o.state === 'failed' ? 'nonconformance' : 'runner'}">${mask(failureText(o))}</${tag}></testcase>`;
  });
  const n = (state: WorkflowOutcome['state']) => outcomes.filter((o) => o.state === state).length;
  const time = (durationMs / 1000).toFixed(3);
  const props = [['base-url', settings.baseUrl], ['exit-code', String(code)]].map(([k, v]) => `      <property name="${k}" value="${mask(v!)}"/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="vault-conformance workflows" tests="${outcomes.length}" failures="${n('failed')}" errors="${n('error')}" time="${time}">\n  <testsuite name="vault.workflows" tests="${outcomes.length}" failures="${n('failed')}" errors="${n('error')}" skipped="${n('not-run')}" time="${time}" timestamp="${new Date().toISOString().replace(/\.\d+Z$/, '')}">\n    <properties>\n${props}\n    </properties>\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}
