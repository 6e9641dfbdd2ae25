import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFailingServer } from './process.js';
import { defaultReleaseFile } from '../domain/registry.js';

/** The registry release as server/main.ts loads it at start-up; the registry over HTTP is in recipes.test.ts. */

const RELEASE = JSON.parse(readFileSync(defaultReleaseFile(), 'utf8')) as { registryVersion: string; recipes: any[] };

describe('registry release', () => {
  describe('when the release file is broken, then the server does not start and says why in one line', () => {
    const dirs: string[] = [];
    afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
    const broken = (content: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'vault-registry-'));
      dirs.push(dir);
      writeFileSync(join(dir, 'release-broken.json'), content);
      return { dir, file: join(dir, 'release-broken.json') };
    };
    const cases: [string, string, RegExp][] = [
      [
        'a recipe that fails the Recipe schema',
        JSON.stringify({ registryVersion: '2026.12', recipes: [{ ...RELEASE.recipes[0], kind: 'shop' }] }),
        /registry release .*release-broken\.json: \/recipes\/0\/kind must be one of merchant, platform, signup, signup-platform/,
      ],
      [
        'a signup: key on a merchant recipe',
        JSON.stringify({ registryVersion: '2026.12', recipes: [{ key: 'signup:x.com', kind: 'merchant', status: 'partial' }] }),
        /\/recipes\/0\/key only signup and signup-platform recipes have keys starting with "signup:"/,
      ],
      ['not JSON', '{"registryVersion": "2026.12", "recipes": [', /release-broken\.json: not readable JSON/],
    ];
    for (const [name, content, message] of cases) {
      it(name, async () => {
        const { dir, file } = broken(content);
        const { code, output } = await runFailingServer({ VAULT_DATA_DIR: dir, VAULT_REGISTRY_FILE: file });
        expect(code).not.toBe(0);
        expect(output.trim().split('\n')).toHaveLength(1);
        expect(output).toMatch(/^credential-vault: registry release /);
        expect(output).toMatch(message);
      });
    }
  });
});
