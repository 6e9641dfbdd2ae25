import type { Case } from '../case.js';
import type { CaseResult } from '../outcome.js';
import type { CaseDetail } from '../run.js';
import type { Exchange } from '../exchange.js';
import type { Secrets } from '../secrets.js';
import { replayOf } from './replay.js';
import { writtenOf } from './causes.js';
import { provesText } from './labels.js';
import { requirementWords } from '../basis.js';
import { networkHint } from '../network-hints.js';

const BODY_LIMIT = 600;

export function truncate(text: string, limit = BODY_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters in all)` : text;
}

function indent(lines: string[], label: string): string[] {
  return lines.map((line, i) => `${i === 0 ? label.padEnd(10) : ' '.repeat(10)}${line}`);
}

function requestLines(ex: Exchange): string[] {
  const { request } = ex;
  const lines = [`${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) if (name !== 'accept') lines.push(`${name}: ${value}`);
  if (request.body) {
    lines.push(request.chunked ? `(body sent chunked, ${request.body.length} bytes)` : `(body of ${request.body.length} bytes)`);
    lines.push(truncate(request.body.toString('utf8'), 300));
  }
  return lines;
}

function responseLines(ex: Exchange): string[] {
  const { response } = ex;
  const shown = ['content-type', 'cache-control', 'retry-after', 'allow'];
  const headers = shown.filter((h) => response.headers[h] !== undefined).map((h) => `${h}: ${response.headers[h]}`);
  return [`${response.status} ${response.statusText}`, ...headers, truncate(response.text || '(empty body)')];
}

/** Two lines for a failure whose cause an earlier case of the run has shown in full. */
export function formatSameCause(c: Case, result: CaseResult, first: string, secrets: Secrets): string {
  const f = result.failure!;
  const lines = [`FAILED ${c.id}: ${c.title}`, ...indent([`the cause of ${first}: expected ${f.expected}; received ${f.received}`], 'Same')];
  // The cause is shared, the request is not: each failure keeps the one line that replays it.
  if (f.exchange) lines.push(...indent([replayOf(f.exchange)], 'Replay'));
  return secrets.mask(lines.join('\n'));
}

/** One screen: the case, what was expected and where that is written, what was sent and what came back. */
export function formatFailure(c: Case, result: CaseResult, detail: CaseDetail, secrets: Secrets): string {
  const lines: string[] = [];
  const state = result.state === 'failed' ? 'FAILED' : 'ERROR';
  lines.push(`${state} ${c.id}: ${c.title}`);
  const proves = c.requirements.length === 0 ? provesText({ sections: [], basis: c.basis }) : c.requirements.join(', ');
  lines.push(`          proves ${proves} (${c.level})${result.reason ? `; ${result.reason}` : ''}`);
  const failure = result.failure;
  const ex = failure?.exchange ?? detail.lastExchange;
  if (failure) {
    lines.push(...indent([failure.expected], 'Expected'));
    lines.push(...indent([failure.received], 'Received'));
    lines.push(...indent([writtenOf(failure.where)], 'Written'));
    // The requirement's own words: what justifies the failure.
    lines.push(...indent(requirementWords(failure.where), 'Requires'));
  } else if (result.error) {
    const hint = result.error.kind === 'network' && ex ? networkHint(result.error.message, ex.request.url) : undefined;
    lines.push(...indent([`${result.error.kind}: ${result.error.message}`, ...(hint ? [hint] : [])], 'Problem'));
    lines.push(...indent(['this is not a verdict on the deployment: the runner, the driver or the network failed'], ''));
  }
  if (ex && !failure && result.error) {
    // The exchange at hand is the last one answered, before what failed: said so, never shown as its answer.
    lines.push(...indent(['the last exchange of the case that got an answer, before the problem above'], 'Earlier'));
  }
  if (ex) {
    lines.push(...indent(requestLines(ex), 'Request'));
    lines.push(...indent(responseLines(ex), 'Response'));
  }
  if (detail.steps.length > 0) lines.push(...indent(detail.steps.slice(-5), 'Steps'));
  if (ex) lines.push(...indent([replayOf(ex)], 'Replay'));
  return secrets.mask(lines.join('\n'));
}
