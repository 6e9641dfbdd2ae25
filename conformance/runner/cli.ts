import { resolve } from 'node:path';
import { ENVIRONMENT, OPTIONS, parseArgs, UsageError } from './options.js';
import { resolveSettings } from './settings.js';
import { runConformance, runnerVersion, loadCatalogue, type Catalogue } from './conformance.js';
import { defaultDocumentPath } from './document.js';
import { EXIT_MEANING, type ExitCode } from './report/input.js';
import { Stop, signalExitCode } from './interruption.js';
import { onStopSignals } from './signals.js';
import { deleteAccounts } from './delete-accounts.js';
import { runWorkflowsCommand } from './workflows/command.js';

/** vault-conformance: the exit status is one of EXIT_MEANING's (report/input.ts). */

const EXAMPLES = `Examples:
  # against the local reference server of \`npm start\` (reads data/local.json)
  vault-conformance

  # against a deployment, with its own account-holder driver, allowing cases that spend limits
  vault-conformance --base-url https://vault.staging.example.com --driver ./qa/driver.mjs --spend

  # with given keys only (no driver): the cases that need the driver are not run, and the run
  # exits 4 (incomplete) unless that is accepted
  vault-conformance --base-url https://vault.example.com --key "$KEY" --signup-key "$SIGNUP_KEY" --accept-incomplete

  # one operation's cases, three times each, with reports for CI
  vault-conformance --only 'fileSignupRequest/*' --repeat 3 --junit out/junit.xml --json out/results.json --html out/report.html

  # what would run, with what each case needs and costs
  vault-conformance --list --section 8.3

  # the Arazzo workflows shipped with the runner, over the same connection (see: workflows --help)
  vault-conformance workflows --base-url https://vault.staging.example.com --ca-cert qa/staging-ca.pem --junit out/workflows.xml`;

function help(): string {
  const lines = ['Usage: vault-conformance [options]', '       vault-conformance workflows [options]', '', 'Replays the specification\'s edge cases against a credential-vault deployment and checks every', 'response against the bundled OpenAPI document.', ''];
  for (const group of ['Target', 'Connection', 'Webhooks', 'Selection', 'Running', 'Reports', 'Generation'] as const) {
    const options = OPTIONS.filter((o) => o.group === group);
    if (options.length === 0) continue;
    lines.push(`${group}:`);
    for (const o of options) {
      const flag = `  ${o.short ? `-${o.short}, ` : ''}--${o.name}${o.value ? ` ${o.value}` : ''}`;
      lines.push(flag.length > 30 ? `${flag}\n${' '.repeat(32)}${o.help}` : `${flag.padEnd(32)}${o.help}`);
    }
    lines.push('');
  }
  lines.push('Environment (the keys and the token are kept out of the command line, and of `ps`):');
  for (const v of ENVIRONMENT) lines.push(`  ${v.name.padEnd(36)}${v.help}`);
  lines.push('');
  lines.push('Exit status:', ...([0, 1, 2, 3, 4, 130, 143] as ExitCode[]).map((code) => `  ${code}  ${EXIT_MEANING[code]}`), '');
  lines.push(EXAMPLES);
  return `${lines.join('\n')}\n`;
}

export async function main(argv: string[], catalogue: Catalogue, cwd = process.cwd(), env = process.env): Promise<number> {
  const out = { write: (t: string) => void process.stdout.write(t), isTTY: process.stdout.isTTY === true };
  const stop = new Stop();
  const forget = onStopSignals(stop);
  try {
    if (argv[0] === 'workflows') return await runWorkflowsCommand(argv.slice(1), cwd, env, out, stop);
    const parsed = parseArgs(argv);
    if (parsed.help) {
      out.write(help());
      return 0;
    }
    if (parsed.version) {
      const document = typeof parsed.document === 'string' ? resolve(cwd, parsed.document) : defaultDocumentPath();
      out.write(`vault-conformance ${runnerVersion()}, document ${loadCatalogue(document, catalogue).doc.version}\n`);
      return 0;
    }
    const settings = resolveSettings(parsed, cwd, env);
    if (Array.isArray(parsed.deleteAccounts)) return await deleteAccounts(settings, parsed.deleteAccounts, out);
    return (await runConformance(settings, out, catalogue, stop)).exitCode;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`vault-conformance: ${e.message}\n`);
      return stop.signal ? signalExitCode(stop.signal) : 2;
    }
    throw e;
  } finally {
    forget();
  }
}
