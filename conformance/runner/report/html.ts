import type { Case } from '../case.js';
import type { Exchange } from '../exchange.js';
import { describeBasis, requirementWords } from '../basis.js';
import { replayOf } from './replay.js';
import { truncate } from './failure.js';
import { coverageTotals, type CoverageRow } from './coverage.js';
import { groupDeviations, seenIn } from './deviations.js';
import { CauseTracker } from './causes.js';
import { byGroupKey, chapterGroup, provesText } from './labels.js';
import { EXIT_MEANING, type ReportInput } from './input.js';
import { judgementWords, ranLine, verdictOf, type Verdict } from './tally.js';
import { requirementRows, requirementTotals, requirementsLine } from './requirements.js';
import { HTML_STYLE } from './html-style.js';

/**
 * `--html FILE`: the run on one page that opens offline, from a CI artefact or a mail attachment.
 * Everything is inline (the style sheet; no script, no font, no image), so the page makes no
 * request. Every text passes through the run's secrets before it is escaped, and the page once
 * more at the end, so no key or token can reach it.
 */

const BODY_LIMIT = 4000;

function esc(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const VERDICT_LABEL: Record<Verdict, string> = {
  passed: 'passed',
  failed: 'failed',
  known: 'known deviation',
  'unexpected-pass': 'unexpected pass',
  error: 'error',
  'not-run': 'not run',
  'matched-reference': "matched the reference's choice",
  'departed-reference': "departed from the reference's choice",
};

function anchor(id: string): string {
  return `case-${id.replace(/[^A-Za-z0-9-]/g, '_')}`;
}

class Page {
  constructor(private readonly input: ReportInput) {}

  /** Masked, then escaped. */
  t(text: string | number | undefined): string {
    return esc(this.input.secrets.mask(String(text ?? '')));
  }

  request(ex: Exchange): string {
    const { request } = ex;
    const lines = [`${request.method} ${request.url}`, ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`)];
    if (request.chunked) lines.push('transfer-encoding: chunked');
    if (request.body) lines.push('', truncate(request.body.toString('utf8'), BODY_LIMIT));
    return lines.join('\n');
  }

  response(ex: Exchange): string {
    const { response } = ex;
    const lines = [`${response.status} ${response.statusText}`, ...Object.entries(response.headers).map(([k, v]) => `${k}: ${v}`)];
    lines.push('', response.text ? truncate(response.text, BODY_LIMIT) : '(empty body)');
    return lines.join('\n');
  }

  summary(): string {
    const { tally: t, settings, exitCode } = this.input;
    const counts: [string, number, string][] = [
      ['passed', t.verdicts.passed, 'passed'],
      ['failed', t.verdicts.failed + t.verdicts['unexpected-pass'], 'failed'],
      ['errors', t.verdicts.error, 'error'],
      ['known deviations', t.verdicts.known, 'known'],
      ['not run', t.verdicts['not-run'] + (t.catalogue - t.selected), 'not-run'],
      ["reference choices (not rules)", t.verdicts['matched-reference'] + t.verdicts['departed-reference'], 'reference'],
      ['deviations', t.deviations, 'deviation'],
    ];
    return `<section id="summary" aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2>
${this.input.interrupted ? `<p class="exit interrupted">Interrupted by ${this.t(this.input.interrupted)}: no case started after it, the cases under way were ended as errors, and this report covers what ran.</p>\n` : ''}<p class="exit exit-${exitCode}">Exit status ${exitCode}: ${this.t(EXIT_MEANING[exitCode])}</p>
<dl class="counts">${counts.map(([label, n, cls]) => `<div class="count ${cls}${n === 0 ? ' zero' : ''}" data-count="${cls}"><dt>${label}</dt><dd>${n}</dd></div>`).join('')}</dl>
<p class="ran">${this.t(ranLine(t))}</p>
<p class="judgement">Judgement: <strong>${settings.judgement === 'spec' ? 'by the specification' : 'by the reference'}</strong>: ${this.t(judgementWords(settings.judgement).replace(/^judged by the \w+: /, ''))}.</p>
</section>`;
  }

  failures(byId: Map<string, Case>): string {
    const shown = this.input.results.filter((r) => ['failed', 'error', 'unexpected-pass'].includes(verdictOf(r)));
    const causes = new CauseTracker();
    const items = shown.map((r) => {
      const c = byId.get(r.id)!;
      const first = causes.firstWith(r);
      if (first) {
        // Its cause is shown in full once, with the first case that met it.
        return `<article class="failure ${verdictOf(r)} same-cause" id="${anchor(r.id)}">
<h3><span class="tag ${verdictOf(r)}">${VERDICT_LABEL[verdictOf(r)]}</span> <code>${this.t(r.id)}</code> ${this.t(c.title)}</h3>
<p class="proves">proves ${this.t(provesText(c))} (${c.level}); the same cause as <a href="#${anchor(first)}"><code>${this.t(first)}</code></a>: expected ${this.t(r.failure!.expected)}; received ${this.t(r.failure!.received)}</p>
</article>`;
      }
      const detail = this.input.details.get(r.id) ?? { steps: [] };
      const ex = r.failure?.exchange ?? detail.lastExchange;
      const verdict = verdictOf(r);
      const facts: [string, string][] = [];
      if (r.failure) {
        const where = r.failure.where;
        facts.push(['Expected', r.failure.expected], ['Received', r.failure.received]);
        facts.push(['Written', [where.pointer, describeBasis(where)].filter(Boolean).join(' · ')]);
        for (const words of requirementWords(where)) facts.push(['Requirement', words]);
      } else if (r.error) {
        facts.push(['Problem', `${r.error.kind}: ${r.error.message}`], ['Note', 'not a verdict on the deployment: the runner, the driver or the network failed']);
        if (ex) facts.push(['Exchange shown', 'the last one of the case that got an answer, before the problem']);
      } else if (verdict === 'unexpected-pass') {
        facts.push(['Problem', `listed as a known deviation (${r.known}) but passed: remove it from the file`]);
      }
      if (r.reason && r.state === 'failed') facts.push(['Runs', r.reason]);
      return `<article class="failure ${verdict}" id="${anchor(r.id)}">
<h3><span class="tag ${verdict}">${VERDICT_LABEL[verdict]}</span> <code>${this.t(r.id)}</code> ${this.t(c.title)}</h3>
<p class="proves">proves ${this.t(provesText(c))} (${c.level})</p>
<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${this.t(v)}</dd>`).join('')}</dl>
${ex ? `<div class="exchange"><div><h4>Request</h4><pre class="request">${this.t(this.request(ex))}</pre></div><div><h4>Response</h4><pre class="response">${this.t(this.response(ex))}</pre></div></div><h4>Replay</h4><pre class="replay">${this.t(replayOf(ex))}</pre>` : ''}
${detail.steps.length ? `<h4>Steps</h4><ol class="steps">${detail.steps.map((s) => `<li>${this.t(s)}</li>`).join('')}</ol>` : ''}
</article>`;
    });
    return `<section id="failures" aria-labelledby="failures-h"><h2 id="failures-h">Failures and errors (${shown.length})</h2>
${items.length ? items.join('\n') : '<p class="none">None.</p>'}
</section>`;
  }

  deviations(): string {
    const rows = groupDeviations(this.input.results);
    const body = rows
      .map(
        (g) =>
          `<tr><td>${this.t(g.expected)}</td><td>${this.t(g.received)}</td><td>${this.t(g.basis)}${g.pointer ? `<br><code>${this.t(g.pointer)}</code>` : ''}</td><td class="seen" data-answers="${g.answers}" data-cases="${g.cases.length}">${this.t(seenIn(g))}${g.exchange ? `<br>first: <code>${this.t(g.exchange)}</code>` : ''}<details><summary>the cases</summary><ul class="ids">${g.cases.map((id) => `<li><code>${this.t(id)}</code></li>`).join('')}</ul></details></td></tr>`,
      )
      .join('\n');
    return `<section id="deviations" aria-labelledby="deviations-h"><h2 id="deviations-h">Deviations (${rows.length})</h2>
<p class="note">Departures from choices of the reference server that the specification leaves open, one row per distinct departure. ${this.input.settings.judgement === 'spec' ? 'Informative: they never fail a case.' : 'Judged by the reference, such departures fail their case instead, so none is listed here.'}</p>
${rows.length ? `<table class="deviations"><thead><tr><th>expected</th><th>received</th><th>basis</th><th>seen in</th></tr></thead><tbody>\n${body}\n</tbody></table>` : '<p class="none">None.</p>'}
</section>`;
  }

  notRun(): string {
    const { tally: t, results } = this.input;
    const kinds = [
      ['capability', 'For a missing capability', 'These make the run incomplete (exit 4) unless it is accepted with --accept-incomplete.'],
      ['choice', 'By choice', 'Left out by the options given; they never change the exit status.'],
      ['stopped', 'Stopped early', '--max-failures, or a signal, ended the run before these started.'],
    ] as const;
    const groups = kinds
      .filter(([kind]) => t.notRun[kind] > 0)
      .map(([kind, title, note]) => {
        const reasons = t.reasons.filter((r) => r.kind === kind);
        const items = reasons.map((reason) => {
          const ids = results.filter((r) => r.state === 'not-run' && (r.notRun?.label ?? r.reason) === reason.label && (r.notRun?.kind ?? 'capability') === kind).map((r) => r.id);
          const list = ids.length ? `<details><summary>${ids.length} case${ids.length === 1 ? '' : 's'}</summary><ul class="ids">${ids.map((id) => `<li><code>${this.t(id)}</code></li>`).join('')}</ul></details>` : '';
          return `<li><span class="reason">${this.t(reason.label)}</span> <span class="n">${reason.cases}</span>${list}</li>`;
        });
        return `<div class="not-run-kind ${kind}"><h3>${title} (${t.notRun[kind]})</h3><p class="note">${note}</p><ul class="reasons">${items.join('')}</ul></div>`;
      });
    return `<section id="not-run" aria-labelledby="not-run-h"><h2 id="not-run-h">Not run (${t.catalogue - t.ran})</h2>
${groups.length ? groups.join('\n') : '<p class="none">Every case of the catalogue ran.</p>'}
</section>`;
  }

  coverage(): string {
    const rows = this.input.coverage;
    const totals = coverageTotals(rows);
    const statuses = [...new Set(rows.map((r) => r.status))].sort((a, b) => Number(a) - Number(b));
    const byOp = new Map<string, CoverageRow[]>();
    for (const r of rows) byOp.set(r.operationId, [...(byOp.get(r.operationId) ?? []), r]);
    const chip = (r: CoverageRow) => {
      const state = r.exercised ? 'exercised' : r.ineligible ? 'untestable' : 'missed';
      const why = r.exercised ? `exercised by ${r.cases.join(', ')}` : r.ineligible ? `not testable: ${r.ineligible}` : (r.reason ?? 'not exercised');
      return `<span class="chip ${state}" title="${this.t(why)}">${this.t(r.code ?? r.status)}</span>`;
    };
    const body = [...byOp]
      .map(([op, list]) => {
        const info = this.input.doc.operations.get(op);
        const done = list.filter((r) => r.exercised).length;
        const cells = statuses.map((s) => {
          const here = list.filter((r) => r.status === s);
          return `<td>${here.map(chip).join(' ')}</td>`;
        });
        return `<tr><th scope="row"><code>${this.t(op)}</code>${info ? `<br><span class="path">${this.t(`${info.method.toUpperCase()} ${info.path}`)}</span>` : ''}</th><td class="ratio">${done}/${list.length}</td>${cells.join('')}</tr>`;
      })
      .join('\n');
    return `<section id="coverage" aria-labelledby="coverage-h"><h2 id="coverage-h">Contract coverage</h2>
<p>${totals.documented} documented (operation, status, code): <strong>${totals.exercised}</strong> exercised, ${totals.notTestable} not testable, ${totals.notExercised} not exercised in this run. Each cell lists the error codes of a status (or the status itself); hover one for the cases that exercised it, or why none did.</p>
<p class="legend"><span class="chip exercised">exercised</span> <span class="chip untestable">not testable</span> <span class="chip missed">not exercised here</span></p>
<div class="scroll"><table class="coverage"><thead><tr><th scope="col">operation</th><th scope="col">exercised</th>${statuses.map((s) => `<th scope="col">${this.t(s)}</th>`).join('')}</tr></thead><tbody>
${body}
</tbody></table></div>
<details><summary>Every documented (operation, status, code), with its cases or why none ran</summary>
<table class="coverage-list"><thead><tr><th>operation</th><th>status</th><th>code</th><th>exercised</th><th>by / why not</th></tr></thead><tbody>
${rows.map((r) => `<tr><td><code>${this.t(r.operationId)}</code></td><td>${this.t(r.status)}</td><td>${this.t(r.code ?? '')}</td><td>${r.exercised ? 'yes' : 'no'}</td><td>${this.t(r.exercised ? r.cases.join(', ') : r.ineligible ? `not testable: ${r.ineligible}` : r.reason)}</td></tr>`).join('\n')}
</tbody></table></details>
</section>`;
  }

  cases(byId: Map<string, Case>): string {
    const rows = this.input.results.map((r) => {
      const c = byId.get(r.id)!;
      const verdict = verdictOf(r);
      const note = r.state === 'not-run' ? r.reason : r.known ? `known: ${r.known}` : r.reason;
      const name = ['failed', 'error', 'unexpected-pass'].includes(verdict) ? `<a href="#${anchor(r.id)}"><code>${this.t(r.id)}</code></a>` : `<code>${this.t(r.id)}</code>`;
      return `<tr class="${verdict}"><td>${name}</td><td>${this.t(c.title)}</td><td>${this.t(provesText(c))}</td><td><span class="tag ${verdict}">${VERDICT_LABEL[verdict]}</span></td><td>${(r.durationMs / 1000).toFixed(1)} s</td><td>${this.t(note ?? '')}${r.deviations.length ? ` (${r.deviations.length} deviation${r.deviations.length === 1 ? '' : 's'})` : ''}</td></tr>`;
    });
    const bySection = new Map<string, { title: string; n: number }>();
    for (const r of this.input.results) {
      const group = chapterGroup(byId.get(r.id)!);
      bySection.set(group.key, { title: group.title, n: (bySection.get(group.key)?.n ?? 0) + 1 });
    }
    return `<section id="cases" aria-labelledby="cases-h"><h2 id="cases-h">Every case (${rows.length})</h2>
<p>${[...bySection].sort(([a], [b]) => byGroupKey(a, b)).map(([, { title, n }]) => `${this.t(title)}: ${n}`).join(' · ')}</p>
<details><summary>Show the ${rows.length} cases of this run</summary>
<table class="cases"><thead><tr><th>case</th><th>title</th><th>sections</th><th>verdict</th><th>time</th><th>note</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></details>
</section>`;
  }

  /** The run requirement by requirement: the catalogue's trace matrix, with this run's verdicts. */
  requirements(): string {
    const rows = requirementRows(this.input.cases, this.input.results);
    const t = requirementTotals(rows);
    const cases = (ids: string[]) => ids.map((id) => `<code>${this.t(id)}</code>`).join(' ');
    const body = rows
      .map((r) => `<tr class="${r.verdict}" data-requirement="${this.t(r.id)}"><td><code>${this.t(r.id)}</code></td><td>${this.t(r.place)}</td><td>${this.t(r.says)}</td><td><span class="tag ${r.verdict}">${this.t(r.verdict.replace('-', ' '))}</span>${r.deviations ? ` (${r.deviations} deviation${r.deviations === 1 ? '' : 's'})` : ''}</td><td>${cases(r.brokenIn.length ? r.brokenIn : r.heldIn.length ? r.heldIn : r.notRunIn)}</td></tr>`)
      .join('\n');
    return `<section id="requirements" aria-labelledby="requirements-h"><h2 id="requirements-h">Requirements</h2>
<p>${this.t(requirementsLine(t))}.</p>
<table><thead><tr><th>requirement</th><th>place</th><th>what it asks</th><th>verdict</th><th>cases</th></tr></thead><tbody>
${body}
</tbody></table></section>`;
  }

  render(): string {
    const { settings, doc, durationMs, startedAt, version, tally: t } = this.input;
    const byId = new Map(this.input.cases.map((c) => [c.id, c]));
    const failing = t.verdicts.failed + t.verdicts['unexpected-pass'];
    const title = `vault-conformance: ${this.input.interrupted ? 'interrupted, ' : ''}${failing ? `${failing} failed` : t.verdicts.error ? `${t.verdicts.error} errors` : 'passed'} against ${settings.baseUrl}`;
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${this.t(title)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<header>
<h1>Conformance report</h1>
<p class="target"><code>${this.t(settings.baseUrl)}</code> · document ${this.t(doc.version)} · vault-conformance ${this.t(version)} · started ${this.t(startedAt.toISOString())} · ${(durationMs / 1000).toFixed(1)} s · seed ${settings.seed}${settings.repeat > 1 ? ` · each case ${settings.repeat} times` : ''}${settings.spend ? ' · spending allowed' : ' · no spending'}</p>
<nav><a href="#summary">Summary</a> <a href="#failures">Failures</a> <a href="#deviations">Deviations</a> <a href="#not-run">Not run</a> <a href="#requirements">Requirements</a> <a href="#coverage">Coverage</a> <a href="#cases">Cases</a></nav>
</header>
<main>
${this.summary()}
${this.failures(byId)}
${this.deviations()}
${this.notRun()}
${this.requirements()}
${this.coverage()}
${this.cases(byId)}
</main>
</body>
</html>
`;
  }
}

export function htmlReport(input: ReportInput): string {
  // A last pass for a secret that reached the page by a way the per-text masking did not see.
  return input.secrets.mask(new Page(input).render(), (label) => `&lt;${esc(label)}&gt;`);
}
