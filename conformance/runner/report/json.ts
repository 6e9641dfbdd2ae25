import { replayOf } from './replay.js';
import { isGenerated } from '../generate/results.js';
import { tagsOf } from '../tags.js';
import { coverageTotals } from './coverage.js';
import { verdictOf } from './tally.js';
import { groupDeviations } from './deviations.js';
import { failureCauses } from './causes.js';
import { EXIT_MEANING, type ReportInput } from './input.js';
import { requirementRows, requirementTotals } from './requirements.js';

/**
 * Every result, with its failure in full, its deviations apart, the coverage table, and every count
 * (zeros included, so a consumer never has to guess whether a missing key means none); secrets
 * masked throughout.
 */
export function jsonReport(input: ReportInput): string {
  const byId = new Map(input.cases.map((c) => [c.id, c]));
  const t = input.tally;
  const requirements = requirementRows(input.cases, input.results);
  const report = {
    runner: input.version,
    document: input.doc.version,
    baseUrl: input.settings.baseUrl,
    judgement: input.settings.judgement,
    startedAt: input.startedAt.toISOString(),
    seed: input.settings.seed,
    manualClock: input.manualClock,
    spend: input.settings.spend,
    repeat: input.settings.repeat,
    ...(input.settings.maxFailures !== undefined ? { maxFailures: input.settings.maxFailures } : {}),
    acceptIncomplete: input.settings.acceptIncomplete,
    interrupted: input.interrupted ?? null,
    exitCode: input.exitCode,
    exitMeaning: EXIT_MEANING[input.exitCode],
    durationMs: Math.round(input.durationMs),
    totals: { ...t.verdicts, deviations: t.deviations, failureCauses: t.failureCauses, generated: t.generated.properties, requirements: requirementTotals(requirements) },
    catalogue: {
      cases: t.catalogue,
      selected: t.selected,
      ran: t.ran,
      notRun: t.notRun,
      reasons: t.reasons,
      incomplete: t.notRun.capability > 0,
    },
    accountsLeftBehind: input.leftBehind ?? [],
    deviations: groupDeviations(input.results),
    requirements,
    failureCauses: failureCauses(input.results),
    cases: input.results.map((r) => {
      const c = byId.get(r.id)!;
      const detail = input.details.get(r.id);
      const ex = r.failure?.exchange ?? (r.state === 'failed' || r.state === 'error' ? detail?.lastExchange : undefined);
      return {
        id: r.id,
        title: c.title,
        ...(isGenerated(c) ? { generated: true } : {}),
        sections: c.sections,
        requirements: c.requirements,
        ...(c.basis?.kind === 'reference' ? { referenceChoice: c.basis.why } : {}),
        level: c.level,
        tags: tagsOf(c),
        needs: c.needs,
        costs: c.costs,
        state: r.state,
        verdict: verdictOf(r),
        ...(r.reason ? { reason: r.reason } : {}),
        ...(r.notRun ? { notRunKind: r.notRun.kind, notRunLabel: r.notRun.label } : {}),
        ...(r.known ? { known: r.known } : {}),
        ...(r.reference ? { reference: r.reference } : {}),
        requirementsHeld: r.requirements.held,
        ...(r.requirements.broken.length ? { requirementsBroken: r.requirements.broken } : {}),
        attempts: r.attempts,
        durationMs: Math.round(r.durationMs),
        requests: r.requests,
        observed: r.observed,
        ...(r.failure ? { failure: { expected: r.failure.expected, received: r.failure.received, where: r.failure.where } } : {}),
        deviations: r.deviations.length,
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
