// The bench's table and its targets, all as ratios to baselines measured in the same run.
import type { Running } from './processes.js';

/**
 * What the reference server is held to. Every reference variant serving the API's document
 * (validated or not, with `?url`) against the bare Express route and Prism (silent), round by
 * round, median round. The variant with extra paths is shown, not held: the document has the
 * paths the specification gives it, and the validator tries them in order, as it ships.
 */
export const TARGETS = {
  /** At least this share of the bare Express route's req/s. */
  vsExpress: 0.75,
  /** At least this many times Prism's req/s, silent. */
  vsPrism: 2,
  /** p99 under this many ms, in the median round and in the worst. */
  p99Ms: 50,
  /** First answer within this many ms of listening, after ready(). */
  firstResponseMs: 100,
};

/** The variants of a run, in the order of the table; those whose id starts with `ref` are the reference server, and all but `ref-extra` are held to the targets. */
export const VARIANT_IDS = [
  'raw',
  'express',
  'express-validated',
  'prism',
  'prism-logging',
  'ref',
  'ref-url',
  'ref-novalidate',
  'ref-novalidate-url',
  'ref-extra',
] as const;
export type VariantId = (typeof VARIANT_IDS)[number];

export function variantLabels(extraPaths: number): Record<VariantId, string> {
  return {
    raw: 'raw node:http (same bytes)',
    express: 'bare Express route (same body)',
    'express-validated': 'Express + express-openapi-validator',
    prism: 'Prism mock, silent',
    'prism-logging': 'Prism mock, default logging',
    ref: 'reference, validated',
    'ref-url': 'reference, validated, ?url',
    'ref-novalidate': 'reference, responses not validated',
    'ref-novalidate-url': 'reference, responses not validated, ?url',
    'ref-extra': `reference, validated, +${extraPaths} paths`,
  };
}

export interface Round {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  /** CPU time the server (and its child processes) used during the round, in µs. */
  cpuMicros: number;
}

export interface Measured {
  id: string;
  label: string;
  server: Running;
  rounds: Round[];
  /** Answers that were not 2xx, and connection errors, by status code; any makes the run invalid. */
  refused: Map<string, number>;
}

/** Microseconds per validator route lookup, for the bundled document and with the extra paths. */
export interface Lookup {
  path: string;
  base: number;
  extra: number;
}

interface Row {
  m: Measured;
  rps: number;
  /** Server CPU µs per request, median round. */
  cpu: number;
  p50: number;
  /** p99 of the median round, and of the worst. */
  p99: number;
  p99Worst: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export function formatReport(input: {
  measured: Measured[];
  cold: Running;
  lookups: Lookup[];
  paths: number;
  settings: { duration: number; rounds: number; connections: number; extraPaths: number };
  machine: string;
}): { text: string; valid: boolean } {
  const rows = new Map<string, Row>(
    input.measured.map((m) => [
      m.id,
      {
        m,
        rps: m.rounds.reduce((n, r) => n + r.requests, 0) / m.rounds.reduce((n, r) => n + r.seconds, 0),
        cpu: median(m.rounds.map((r) => r.cpuMicros / Math.max(1, r.requests))),
        p50: median(m.rounds.map((r) => r.p50)),
        p99: median(m.rounds.map((r) => r.p99)),
        p99Worst: Math.max(...m.rounds.map((r) => r.p99)),
      },
    ]),
  );
  const row = (id: string) => rows.get(id)!;
  const raw = row('raw').rps;
  const express = row('express').rps;
  const prism = row('prism').rps;
  const ratio = (x: number, base: number) => `${(x / base).toFixed(2)}x`;
  // Targets compare variants round by round (each round's variants ran minutes apart at most), and
  // take the median round, so one round disturbed by the machine's other work does not decide.
  const perRound = (id: string, baseId: string) => {
    const a = row(id).m.rounds;
    const b = row(baseId).m.rounds;
    const ratios = a.map((r, i) => r.requests / r.seconds / (b[i]!.requests / b[i]!.seconds));
    return { median: median(ratios), text: `${median(ratios).toFixed(2)}x (rounds ${ratios.map((x) => x.toFixed(2)).join(' / ')})` };
  };
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  const ms = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(x < 10 ? 1 : 0));

  const { settings } = input;
  const lines: string[] = [];
  lines.push(`GET /v1/tokens: ${settings.connections} connections, ${settings.rounds} rounds of ${settings.duration} s per variant, interleaved`);
  lines.push(input.machine);
  lines.push('');
  lines.push('| variant | req/s | rounds | vs node:http | vs Express | vs Prism | CPU µs/req | p50 ms | p99 ms | p99 worst ms | peak RSS MB | first response ms |');
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows.values()) {
    lines.push(
      `| ${r.m.label} | ${Math.round(r.rps)} | ${r.m.rounds.map((x) => Math.round(x.requests / x.seconds)).join(' / ')} | ${ratio(r.rps, raw)} | ${ratio(r.rps, express)} | ${ratio(r.rps, prism)} | ${r.cpu.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.p99Worst)} | ${mb(r.m.server.peakRssBytes)} | ${ms(r.m.server.firstResponseMs)} |`,
    );
  }
  lines.push(`| reference without ready() (start-up only) | | | | | | | | | | | ${ms(input.cold.firstResponseMs)} |`);
  lines.push('');
  lines.push('req/s: all rounds together (rounds: each round alone); CPU µs/req: CPU time of the server process (and its children) per answer, median');
  lines.push('round, which a busy machine disturbs less than req/s; p50, p99: median round; p99 worst: worst round; peak RSS: the server process (shared');
  lines.push('by the variants of one server); first response: from the server listening to its first answer on a new connection.');
  lines.push('');

  const targets: [string, boolean, string][] = [];
  const referenceRows = [...rows.values()].filter((r) => r.m.id.startsWith('ref') && r.m.id !== 'ref-extra');
  for (const r of referenceRows) {
    const vsExpress = perRound(r.m.id, 'express');
    targets.push([`${r.m.label}: at least ${TARGETS.vsExpress}x bare Express`, vsExpress.median >= TARGETS.vsExpress, vsExpress.text]);
    const vsPrism = perRound(r.m.id, 'prism');
    targets.push([`${r.m.label}: at least ${TARGETS.vsPrism}x ${row('prism').m.label}`, vsPrism.median >= TARGETS.vsPrism, vsPrism.text]);
  }
  for (const [which, p99] of [
    ['median round', (r: Row) => r.p99],
    ['worst round', (r: Row) => r.p99Worst],
  ] as const) {
    const worst = referenceRows.reduce((a, b) => (p99(b) > p99(a) ? b : a));
    targets.push([
      `reference p99 under ${TARGETS.p99Ms} ms at ${settings.connections} connections (worst variant, ${which})`,
      p99(worst) < TARGETS.p99Ms,
      `${ms(p99(worst))} ms (${worst.m.label})`,
    ]);
  }
  const warmed = [...new Set(referenceRows.map((r) => r.m.server))];
  const worstFirst = Math.max(...warmed.map((s) => s.firstResponseMs ?? Infinity));
  targets.push([`reference first response within ${TARGETS.firstResponseMs} ms of listening (with ready())`, worstFirst <= TARGETS.firstResponseMs, `${ms(worstFirst)} ms (without ready(): ${ms(input.cold.firstResponseMs)} ms)`]);
  // --seam: what the framework seam buys, part by part (docs/server.md, "The framework seam").
  const seamRows = [...rows.values()].filter((r) => r.m.id.startsWith('seam:'));
  if (seamRows.length > 0) {
    const ref = row('ref');
    const best = (r: Row) => Math.min(...r.m.rounds.map((x) => x.cpuMicros / Math.max(1, x.requests)));
    const more = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(0)}`;
    lines.push(`| against ${ref.m.label} | CPU µs/req more (median round) | CPU µs/req more (best round) | req/s vs reference | vs Express | vs Prism | first response ms |`);
    lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const r of seamRows) {
      lines.push(
        `| ${r.m.label} | ${more(r.cpu - ref.cpu)} | ${more(best(r) - best(ref))} | ${perRound(r.m.id, 'ref').text} | ${perRound(r.m.id, 'express').text} | ${perRound(r.m.id, 'prism').text} | ${ms(r.m.server.firstResponseMs)} |`,
      );
    }
    lines.push('');
  }
  lines.push(`| validator route lookup, µs per request (in the bench process) | ${input.paths} paths | +${settings.extraPaths} paths |`);
  lines.push('| --- | ---: | ---: |');
  for (const l of input.lookups) lines.push(`| GET ${l.path} | ${l.base.toFixed(1)} | ${l.extra.toFixed(1)} |`);
  lines.push('');
  lines.push('| target | met | measured |');
  lines.push('| --- | --- | --- |');
  for (const [what, met, value] of targets) lines.push(`| ${what} | ${met ? 'yes' : 'NO'} | ${value} |`);
  lines.push('');
  lines.push(`Targets met: ${targets.filter(([, met]) => met).length} of ${targets.length}.`);

  const refused = input.measured.filter((m) => m.refused.size > 0);
  lines.push('');
  if (refused.length === 0) {
    lines.push('Valid run: every answer was 2xx.');
  } else {
    lines.push('INVALID RUN: answers that were not 2xx (or connection errors):');
    for (const m of refused) lines.push(`  ${m.label}: ${[...m.refused].map(([code, n]) => `${n} x ${code}`).join(', ')}`);
  }
  return { text: lines.join('\n'), valid: refused.length === 0 };
}
