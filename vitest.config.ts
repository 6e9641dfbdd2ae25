import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The PostgreSQL cluster the store tests make their databases on (server/test/postgres-setup.ts).
    globalSetup: ['server/test/postgres-setup.ts'],
    include: ['server/test/**/*.test.ts', 'client/test/**/*.test.ts', 'openapi/test/**/*.test.ts', 'conformance/test/**/*.test.ts'],
    // Several suites start real processes (the server, Prism, Chromium); their start-up is not a test's slowness.
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
