import type { Case } from '../case.js';
import type { ApiDocument } from '../document.js';
import type { CaseResult } from '../outcome.js';
import type { CaseDetail } from '../run.js';
import type { Secrets } from '../secrets.js';
import type { Settings } from '../settings.js';
import { replayOf } from './replay.js';
import { coverageTotals, type CoverageRow } from './coverage.js';
import { verdictOf } from './console.js';
import type { GenerationSummary } from '../generate/run.js';

interface JsonInput {
  settings: Settings;
  doc: ApiDocument;
  cases: Case[];
  results: CaseResult[];
  details: Map<string, CaseDetail>;
  coverage: CoverageRow[];
  durationMs: number;
  manualClock: boolean;
  secrets: Secrets;
  version: string;
  generation?: GenerationSummary;
}

/** Every result, with its failure in full and the coverage table; secrets masked throughout. */
export function jsonReport(input: JsonInput): string {
  const byId = new Map(input.cases.map((c) => [c.id, c]));
  const totals: Record<string, number> = {};
  for (const r of input.results) totals[verdictOf(r)] = (totals[verdictOf(r)] ?? 0) + 1;
  const report = {
    runner: input.version,
    document: input.doc.version,
    baseUrl: input.settings.baseUrl,
    seed: input.settings.seed,
    manualClock: input.manualClock,
    spend: input.settings.spend,
    repeat: input.settings.repeat,
    durationMs: Math.round(input.durationMs),
    totals,
    cases: input.results.map((r) => {
      const c = byId.get(r.id)!;
      const detail = input.details.get(r.id);
      const ex = r.failure?.exchange ?? (r.state === 'failed' || r.state === 'error' ? detail?.lastExchange : undefined);
      return {
        id: r.id,
        title: c.title,
        sections: c.sections,
        level: c.level,
        needs: c.needs,
        costs: c.costs,
        state: r.state,
        verdict: verdictOf(r),
        ...(r.reason ? { reason: r.reason } : {}),
        ...(r.known ? { known: r.known } : {}),
        attempts: r.attempts,
        durationMs: Math.round(r.durationMs),
        requests: r.requests,
        observed: r.observed,
        ...(r.failure ? { failure: { expected: r.failure.expected, received: r.failure.received, where: r.failure.where } } : {}),
        ...(r.error ? { error: { kind: r.error.kind, message: r.error.message } } : {}),
        ...(ex
          ? {
              request: { method: ex.request.method, url: ex.request.url, headers: ex.request.headers, body: ex.request.body?.toString('utf8').slice(0, 4000) },
              response: { status: ex.response.status, headers: ex.response.headers, body: ex.response.text.slice(0, 4000) },
              replay: replayOf(ex),
            }
          : {}),
        ...(detail && (r.state === 'failed' || r.state === 'error') ? { steps: detail.steps } : {}),
      };
    }),
    coverage: { totals: coverageTotals(input.coverage), rows: input.coverage },
    ...(input.generation
      ? {
          generation: {
            requests: input.generation.requests,
            durationMs: input.generation.durationMs,
            properties: input.generation.outcomes.map((o) => ({
              id: o.id,
              state: o.state,
              requests: o.requests,
              byRule: o.byRule,
              ...(o.reason ? { reason: o.reason } : {}),
              ...(o.failure
                ? { failure: { rule: o.failure.rule, expected: o.failure.failure.expected, received: o.failure.failure.received, where: o.failure.failure.where, seed: o.failure.seed, path: o.failure.path, replay: o.failure.exchange ? replayOf(o.failure.exchange) : undefined } }
                : {}),
            })),
          },
        }
      : {}),
  };
  return `${input.secrets.mask(JSON.stringify(report, null, 2))}\n`;
}
