import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonLog } from '../http/logging.js';

// The request log writes a line for every request, so it is written without copying the line into
// a new object; these cases hold it to the plain form, JSON.stringify({ time, ...line }).

afterEach(() => {
  vi.restoreAllMocks();
});

/** The lines jsonLog writes for `lines`, once the turn's write has gone out. */
async function written(lines: Record<string, unknown>[]): Promise<string[]> {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  for (const line of lines) jsonLog(line);
  await new Promise((resolve) => setImmediate(resolve));
  return out.join('').split('\n').slice(0, -1);
}

describe('request log', () => {
  it('when lines are logged, then each is the time first and then its members, as JSON.stringify({ time, ...line }) writes it', async () => {
    const lines: Record<string, unknown>[] = [
      { method: 'GET', path: '/v1/tokens', operation: 'getTokenCatalog', status: 200, ms: 0.25, key: 'key_1' },
      { method: 'GET', path: '/v1/x"y\\z\u2028', operation: undefined, status: 404, ms: 1, key: undefined },
      { level: 'error', msg: 'unexpected error', error: 'é', n: null, nested: { a: [1, 'b'] } },
      {},
      { only: undefined },
      { time: 'a member of its own', x: 1 },
    ];
    const before = Date.now();
    const out = await written(lines);
    const after = Date.now();
    expect(out).toHaveLength(lines.length);
    for (const [i, text] of out.entries()) {
      const { time } = JSON.parse(text) as { time: string };
      const stamp = lines[i]!.time === undefined ? time : new Date(before).toISOString();
      expect(text).toBe(JSON.stringify({ time: stamp, ...lines[i] }));
      if (lines[i]!.time !== undefined) continue;
      expect(new Date(Date.parse(time)).toISOString()).toBe(time);
      expect(Date.parse(time)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(time)).toBeLessThanOrEqual(after);
    }
  });
});
