import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The command line of `npm run bench` (scripts/bench.ts), run as a process; its report's shape is
// held in bench-report.test.ts.

const ROOT = join(import.meta.dirname, '..', '..');

describe('npm run bench', () => {
  it('when asked for --help, then the options are listed and nothing is started; an unknown option is a usage error', () => {
    const help = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench.ts'), '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run bench/);
    for (const option of ['--duration', '--rounds', '--connections', '--warmup', '--extra-paths', '--reads', '--only', '--seam', '--help']) expect(help.stdout).toContain(option);
    expect(help.stderr).toBe('');
    for (const wrong of [['--bogus'], ['--rounds', 'x'], ['--connections', '0'], ['--only', 'both'], ['--reads', '0']]) {
      const refused = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench.ts'), ...wrong], { cwd: ROOT, encoding: 'utf8' });
      expect(refused.status, wrong.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/^bench: .+\n\nUsage: npm run bench/);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
