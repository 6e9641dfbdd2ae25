#!/usr/bin/env node
import { main } from './runner/cli.js';
import { CATALOGUE } from './cases/index.js';

// The command: the runner with this package's catalogue.
main(process.argv.slice(2), CATALOGUE).then(
  (code) => {
    process.exitCode = code;
    // A stopped run leaves its interrupted cases' requests and driver calls behind: they must not hold the exit.
    if (code === 130 || code === 143) process.exit(code);
  },
  (e: Error) => {
    process.stderr.write(`vault-conformance: internal error: ${e.stack ?? e.message}\n`);
    process.exitCode = 3;
  },
);
