import type { Connection, HttpResponse } from '../http.js';
import type { Exchange } from '../exchange.js';
import type { Secrets } from '../secrets.js';
import { RunnerError } from '../errors.js';
import { sleep } from '../throttle.js';
import { holds, evaluate, resolveValue, type Criterion, type Scope } from './expressions.js';

/**
 * Runs the Arazzo workflows of this package over the runner's own connection (its TLS files, its
 * headers, its proxy), so that they reach a deployment the way the cases do. Every step's request
 * goes through `Connection`; every secret a step hands out (a key, a link token) joins the run's
 * secrets before anything is printed; and an account a workflow opened is deleted when the
 * workflow fails before its own last step deletes it.
 */

export interface Step {
  stepId: string;
  description?: string;
  operationId?: string;
  workflowId?: string;
  parameters?: { in?: 'path' | 'query' | 'header'; name: string; value: unknown }[];
  requestBody?: { contentType?: string; payload?: unknown };
  successCriteria?: Criterion[];
  onFailure?: ({ reference: string } | FailureAction)[];
  outputs?: Record<string, string>;
  'x-security'?: { schemeName: string; values: { token: string } }[];
}

interface FailureAction {
  name?: string;
  type: 'retry' | 'end' | 'goto';
  retryAfter?: number;
  retryLimit?: number;
}

export interface Workflow {
  workflowId: string;
  summary?: string;
  inputs?: { $ref?: string; required?: string[]; properties?: Record<string, unknown> };
  steps: Step[];
  outputs?: Record<string, string>;
}

export interface ArazzoFile {
  file: string;
  workflows: Workflow[];
  components?: { inputs?: Record<string, { required?: string[] }>; failureActions?: Record<string, FailureAction> };
}

export interface Operation {
  method: string;
  path: string;
}

/** The operations of each source description, by operationId. */
export type Sources = Record<string, Map<string, Operation>>;

export function operationsOf(document: { paths?: Record<string, Record<string, { operationId?: string }>> }): Map<string, Operation> {
  const ops = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) if (op && typeof op === 'object' && op.operationId) ops.set(op.operationId, { method: method.toUpperCase(), path });
  }
  return ops;
}

/** A step whose success criteria did not hold: the deployment's answer, not the runner's doing. */
export class StepFailure extends Error {
  constructor(
    readonly stepId: string,
    readonly expected: string,
    readonly received: string,
    readonly exchange?: Exchange,
  ) {
    super(`step ${stepId}: expected ${expected}; received ${received}`);
  }
}

export interface Engine {
  file: ArazzoFile;
  sources: Sources;
  connection: Connection;
  baseUrl: string;
  timeoutMs: number;
  secrets: Secrets;
  /** Every exchange, for the report and the replay of a failure. */
  exchanges: Exchange[];
  /** Lines of what was done, for a failure's report. */
  steps: string[];
  /** Accounts opened through the back office and not yet deleted, with the token that opened them. */
  opened: Map<string, string>;
}

function reference(ref: string): string {
  return ref.replace(/^\$sourceDescriptions\./, '');
}

async function send(engine: Engine, step: Step, scope: Scope): Promise<Exchange> {
  const [source, operationId] = reference(step.operationId!).split('.') as [string, string];
  const op = engine.sources[source]?.get(operationId);
  if (!op) throw new RunnerError('runner', `step ${step.stepId}: no operation ${operationId} in ${source}`);
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const p of step.parameters ?? []) {
    const value = String(resolveValue(p.value, scope) ?? '');
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (p.in === 'query') query.set(p.name, value);
    else if (p.in === 'header') headers[p.name.toLowerCase()] = value;
  }
  for (const s of step['x-security'] ?? []) headers.authorization = `Bearer ${String(resolveValue(s.values.token, scope))}`;
  let body: Buffer | undefined;
  if (step.requestBody) {
    body = Buffer.from(JSON.stringify(resolveValue(step.requestBody.payload, scope)));
    headers['content-type'] = step.requestBody.contentType ?? 'application/json';
  }
  const request = engine.connection.request({ method: op.method, url: `${engine.baseUrl}${path}${query.size > 0 ? `?${query}` : ''}`, headers, body });
  const response: HttpResponse = await engine.connection.send(request, engine.timeoutMs);
  const exchange: Exchange = { operationId, request, response };
  engine.exchanges.push(exchange);
  learn(engine, operationId, response, headers.authorization);
  return exchange;
}

/** What a response hands out that must never be printed, and the accounts a workflow opened. */
function learn(engine: Engine, operationId: string, response: HttpResponse, authorization?: string): void {
  const body = response.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return;
  if (operationId === 'createApiKey' && typeof body.key === 'string') engine.secrets.add(body.key, 'API key');
  if (Array.isArray(body.links)) for (const link of body.links as { token?: string }[]) engine.secrets.add(link.token, 'link token');
  if (operationId === 'createAccount' && response.status < 300 && typeof body.accountId === 'string' && authorization) engine.opened.set(body.accountId, authorization);
}

function retryOf(engine: Engine, step: Step): FailureAction | undefined {
  for (const entry of step.onFailure ?? []) {
    const action = 'reference' in entry ? engine.file.components?.failureActions?.[entry.reference.replace(/^\$components\.failureActions\./, '')] : entry;
    if (action?.type === 'retry') return action;
  }
  return undefined;
}

function describeResponse(ex: Exchange): string {
  const body = ex.response.json as { code?: string } | undefined;
  return `${ex.response.status}${body && typeof body.code === 'string' ? ` ${body.code}` : ''}`;
}

async function runStep(engine: Engine, step: Step, scope: Scope): Promise<void> {
  const retry = retryOf(engine, step);
  for (let attempt = 0; ; attempt++) {
    let stepScope: Scope;
    let exchange: Exchange | undefined;
    if (step.workflowId) {
      const inputs = Object.fromEntries((step.parameters ?? []).map((p) => [p.name, resolveValue(p.value, scope)]));
      const outputs = await runWorkflow(engine, step.workflowId, inputs);
      stepScope = { ...scope, outputs };
    } else {
      exchange = await send(engine, step, scope);
      stepScope = { ...scope, response: { status: exchange.response.status, headers: exchange.response.headers, body: exchange.response.json } };
    }
    const failed = (step.successCriteria ?? []).find((c) => !holds(c, stepScope));
    if (!failed) {
      scope.steps[step.stepId] = { outputs: Object.fromEntries(Object.entries(step.outputs ?? {}).map(([name, expression]) => [name, evaluate(expression, stepScope)])) };
      engine.steps.push(`${step.stepId}: ${exchange ? `${exchange.request.method} ${new URL(exchange.request.url).pathname} answered ${describeResponse(exchange)}` : `ran ${step.workflowId}`}`);
      return;
    }
    if (retry && attempt < (retry.retryLimit ?? 1)) {
      await sleep((retry.retryAfter ?? 1) * 1000);
      continue;
    }
    const criterion = failed.context ? `${failed.context} matching ${failed.condition}` : failed.condition;
    throw new StepFailure(step.stepId, criterion, exchange ? describeResponse(exchange) : 'the workflow it ran did not meet it', exchange);
  }
}

/** Runs one workflow of the file with its inputs; returns its outputs. */
export async function runWorkflow(engine: Engine, workflowId: string, inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
  const workflow = engine.file.workflows.find((w) => w.workflowId === workflowId);
  if (!workflow) throw new RunnerError('runner', `no workflow ${workflowId} in ${engine.file.file}`);
  const scope: Scope = { inputs, steps: {} };
  for (const step of workflow.steps) await runStep(engine, step, scope);
  return Object.fromEntries(Object.entries(workflow.outputs ?? {}).map(([name, expression]) => [name, evaluate(expression, scope)]));
}

/** Deletes, through the back office, the accounts a failed workflow left open. */
export async function deleteOpened(engine: Engine): Promise<string[]> {
  const deleteOp = engine.sources.backOffice?.get('deleteAccount');
  const left: string[] = [];
  for (const [accountId, authorization] of engine.opened) {
    if (!deleteOp) {
      left.push(accountId);
      continue;
    }
    try {
      const request = engine.connection.request({ method: deleteOp.method, url: `${engine.baseUrl}${deleteOp.path.replace('{accountId}', encodeURIComponent(accountId))}`, headers: { authorization } });
      const res = await engine.connection.send(request, engine.timeoutMs);
      if (res.status >= 300 && res.status !== 404) left.push(accountId);
      else engine.steps.push(`deleted the account ${accountId} the workflow had opened`);
    } catch {
      left.push(accountId);
    }
  }
  engine.opened.clear();
  return left;
}

/** A workflow's own account deleted by its last step is no longer the runner's to delete. */
export function forgetDeleted(engine: Engine): void {
  for (const ex of engine.exchanges) {
    if (ex.operationId === 'deleteAccount' && ex.response.status < 300) {
      const id = decodeURIComponent(new URL(ex.request.url).pathname.split('/').at(-1) ?? '');
      engine.opened.delete(id);
    }
  }
}

/** Every operationId a workflow reaches, its sub-workflows' included, as `source.operationId`. */
export function operationsReached(file: ArazzoFile, workflowId: string, seen = new Set<string>()): string[] {
  if (seen.has(workflowId)) return [];
  seen.add(workflowId);
  const workflow = file.workflows.find((w) => w.workflowId === workflowId);
  return (workflow?.steps ?? []).flatMap((s) => (s.workflowId ? operationsReached(file, s.workflowId, seen) : s.operationId ? [reference(s.operationId)] : []));
}
