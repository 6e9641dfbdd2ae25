import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { conform } from './support/run.js';

/** A contract change under review: the report names the catalogue cases covering each changed operation. */

describe('the runner with a contract diff', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-diff-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when listing with the diff of check:breaking, then each changed operation names its cases', async () => {
    const diff = join(dir, 'diff.json');
    writeFileSync(
      diff,
      JSON.stringify({
        from: '1.0.0',
        to: '1.1.0',
        changes: [
          { operationId: 'getTokenCatalog', method: 'GET', path: '/v1/tokens', kind: 'member-added', breaking: false, audience: 'both', message: 'GET /v1/tokens (getTokenCatalog): response 200 member `cards[].brand` added', pointer: '#/paths/~1v1~1tokens' },
          { operationId: 'getProxyHealth', method: 'GET', path: '/health', kind: 'status-removed', breaking: true, audience: 'both', message: 'GET /health (getProxyHealth): response 200 removed', pointer: '#/paths/~1health' },
          { operationId: null, method: null, path: null, kind: 'docs-changed', breaking: false, audience: 'both', message: 'info.description changed', pointer: '#/info' },
        ],
      }),
    );
    const run = await conform(['--base-url', 'http://127.0.0.1:9', '--list', '--contract-diff', diff]);
    expect(run.exitCode).toBe(0);
    expect(run.output).toContain('contract changes 1.0.0 → 1.1.0: 2 operation(s) changed, and the document as a whole');
    expect(run.output).toMatch(/ {2}getTokenCatalog: 1 change\(s\); cases: .*getTokenCatalog\/url-narrows-to-the-page/);
    expect(run.output).toMatch(/ {2}getProxyHealth \(breaking\): 1 change\(s\); cases: getProxyHealth\/ok/);
    expect(run.output).toContain('(document): 1 change(s); no case covers it');
  });
});
