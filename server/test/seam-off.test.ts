import { afterAll, describe, expect, it, vi } from 'vitest';
import { seamParts, SEAM_VARIABLE } from '../http/framework/seam.js';

/**
 * The server's behaviour checks with the framework seam off (http/framework/seam.ts): Express and
 * express-openapi-validator as shipped, no message classes, no warming, no route cache. When a new
 * release of either library fails here, the server's behaviour depends on it; when it fails only
 * with the seam on, the seam does (docs/server.md, "The framework seam"). The suites are those of
 * the HTTP layer, validation, errors and the catalog; each reads the switch as it builds a server.
 */
const before = process.env[SEAM_VARIABLE];
process.env[SEAM_VARIABLE] = 'off';
afterAll(() => {
  if (before === undefined) delete process.env[SEAM_VARIABLE];
  else process.env[SEAM_VARIABLE] = before;
});

describe('the framework seam, switched off', () => {
  it('when VAULT_FRAMEWORK_SEAM is off, then no part of it is on', () => {
    expect([...seamParts()]).toEqual([]);
  });
});

// A worker keeps the modules of the files it ran before (vitest.config.ts): without this, a suite
// the worker already ran as a file of its own would not be declared here again.
vi.resetModules();
await import('./http-layer.test.js');
await import('./request-bodies.test.js');
await import('./queries.test.js');
await import('./request-id.test.js');
await import('./answer-order.test.js');
await import('./tokens.test.js');
await import('./kept-answers.test.js');
