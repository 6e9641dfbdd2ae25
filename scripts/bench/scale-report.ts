// The scale section of the bench's report: the same operations at demo size and at the sizes the
// specification allows, as ratios measured in the same run, with the targets they are held to.

export const SCALE_TARGETS = {
  /** A recipe lookup at 10,000 recipes costs at most this many times one at the shipped release's size (server CPU per request). */
  lookupGrowth: 1.5,
  /** Start-up (release loaded, app built and warmed, listening) with 10,000 recipes, at most this many times the shipped release's. */
  startupGrowth: 1.5,
  /** A catalog read right after a write to another account, at most this many times a steady read (median latency). */
  afterOtherWrite: 1.25,
  /** A catalog read of the large account right after a write to it, within this many ms (median latency): a write its catalog does not show, and one it does. */
  afterOwnWriteMs: 3,
  /** A filing costs at most this many times a catalog read of the same account (server CPU per request). */
  filingVsRead: 3,
};

export const SIZES = ['small', 'large'] as const;
export type Size = (typeof SIZES)[number];

/** Operations measured under load: server CPU per request. */
export const LOADS = ['lookup', 'index', 'catalog', 'filing'] as const;
export type LoadId = (typeof LOADS)[number];
/**
 * Catalog reads timed one at a time: steady, right after a write to another account, and right
 * after a write to its own: a password rotation, which leaves its catalog as it was, and a login
 * added or removed, which changes it.
 */
export const SEQUENCES = ['steady', 'after-other-write', 'after-own-write', 'after-own-change'] as const;
export type SequenceId = (typeof SEQUENCES)[number];

export interface LoadRound {
  requests: number;
  cpuMicros: number;
}

export interface ScaleMeasured {
  /** What each size holds, for the table's header. */
  describe: Record<Size, string>;
  /** Start-up of each size's server, ms: each start, sizes interleaved. */
  startupMs: Record<Size, number[]>;
  /** Rounds of each load, per size; filing is measured on the small server only. */
  loads: Record<Size, Partial<Record<LoadId, LoadRound[]>>>;
  /** Per size and sequence: the latency of each timed read, ms, all rounds together. */
  sequences: Record<Size, Record<SequenceId, number[]>>;
}

const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const LOAD_LABELS: Record<LoadId, string> = {
  lookup: 'GET /v1/recipes?url= (lookup)',
  index: 'GET /v1/recipes (index)',
  catalog: 'GET /v1/tokens (catalog)',
  filing: 'POST /v1/logins/requests (filing)',
};
const SEQUENCE_LABELS: Record<SequenceId, string> = {
  steady: 'catalog read, steady',
  'after-other-write': 'catalog read right after a write to another account',
  'after-own-write': 'catalog read right after a password rotation in its own account',
  'after-own-change': 'catalog read right after a login is added to or removed from its own account',
};

/** Server CPU µs per request of a load, median round (NaN when not measured). */
export function cpuPerRequest(rounds: LoadRound[] | undefined): number {
  return median((rounds ?? []).map((r) => r.cpuMicros / Math.max(1, r.requests)));
}

export function formatScale(m: ScaleMeasured): { lines: string[]; met: number; total: number } {
  const lines: string[] = [];
  const f = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
  const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : '—');
  lines.push('## Scale');
  lines.push('');
  lines.push(`small: ${m.describe.small}; large: ${m.describe.large}`);
  lines.push('');
  lines.push('| operation | small | large | large / small |');
  lines.push('| --- | ---: | ---: | ---: |');
  const startupMs = { small: median(m.startupMs.small), large: median(m.startupMs.large) };
  lines.push(`| start-up, ms | ${f(startupMs.small)} | ${f(startupMs.large)} | ${ratio(startupMs.large, startupMs.small)} |`);
  for (const id of LOADS) {
    const small = cpuPerRequest(m.loads.small[id]);
    const large = cpuPerRequest(m.loads.large[id]);
    lines.push(`| ${LOAD_LABELS[id]}, CPU µs/req | ${f(small)} | ${f(large)} | ${ratio(large, small)} |`);
  }
  for (const id of SEQUENCES) {
    const small = median(m.sequences.small[id]);
    const large = median(m.sequences.large[id]);
    lines.push(`| ${SEQUENCE_LABELS[id]}, median ms | ${f(small, 2)} | ${f(large, 2)} | ${ratio(large, small)} |`);
  }
  lines.push('');
  lines.push(
    `start-up: median of ${Math.min(m.startupMs.small.length, m.startupMs.large.length)} starts per size, sizes interleaved; CPU µs/req: server CPU per answer under load, median round; reads timed one at a time: latency seen by the bench, median of every read.`,
  );
  lines.push('');

  const lookup = ratio(cpuPerRequest(m.loads.large.lookup), cpuPerRequest(m.loads.small.lookup));
  const lookupRatio = cpuPerRequest(m.loads.large.lookup) / cpuPerRequest(m.loads.small.lookup);
  const startup = startupMs.large / startupMs.small;
  const targets: [string, boolean, string][] = [
    [`lookup at the large registry within ${SCALE_TARGETS.lookupGrowth}x of the small one (CPU µs/req)`, lookupRatio <= SCALE_TARGETS.lookupGrowth, lookup],
    [`start-up with the large registry within ${SCALE_TARGETS.startupGrowth}x of the small one`, startup <= SCALE_TARGETS.startupGrowth, ratio(startupMs.large, startupMs.small)],
  ];
  for (const size of SIZES) {
    const steady = median(m.sequences[size].steady);
    const other = median(m.sequences[size]['after-other-write']);
    targets.push([
      `${size}: a read after a write of another account at most ${SCALE_TARGETS.afterOtherWrite}x a steady read`,
      other / steady <= SCALE_TARGETS.afterOtherWrite,
      `${ratio(other, steady)} (${f(other, 2)} vs ${f(steady, 2)} ms)`,
    ]);
  }
  for (const [id, write] of [
    ['after-own-write', 'a password rotation in its own account'],
    ['after-own-change', 'a login added to or removed from its own account'],
  ] as const) {
    const own = median(m.sequences.large[id]);
    targets.push([`large: a catalog read right after ${write} within ${SCALE_TARGETS.afterOwnWriteMs} ms`, own <= SCALE_TARGETS.afterOwnWriteMs, `${f(own, 2)} ms`]);
  }
  const filing = cpuPerRequest(m.loads.small.filing);
  const read = cpuPerRequest(m.loads.small.catalog);
  targets.push([`a filing within ${SCALE_TARGETS.filingVsRead}x a catalog read (CPU µs/req, small)`, filing / read <= SCALE_TARGETS.filingVsRead, `${ratio(filing, read)} (${f(filing)} vs ${f(read)} µs)`]);
  lines.push('| scale target | met | measured |');
  lines.push('| --- | --- | --- |');
  for (const [what, met, value] of targets) lines.push(`| ${what} | ${met ? 'yes' : 'NO'} | ${value} |`);
  const met = targets.filter(([, ok]) => ok).length;
  lines.push('');
  lines.push(`Scale targets met: ${met} of ${targets.length}.`);
  return { lines, met, total: targets.length };
}
