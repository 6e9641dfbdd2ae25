#!/usr/bin/env node
import { main } from './runner/cli.js';
import { CATALOGUE } from './cases/index.js';

// The command: the runner with this package's catalogue.
main(process.argv.slice(2), CATALOGUE).then(
  (code) => {
    process.exitCode = code;
  },
  (e: Error) => {
    process.stderr.write(`vault-conformance: internal error: ${e.stack ?? e.message}\n`);
    process.exitCode = 3;
  },
);
