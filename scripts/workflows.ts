// npm run workflows [-- options]; --help lists them.
//
// Runs the Arazzo workflows of openapi/workflows/ with `redocly respect` against a deployment: by
// default the local sandbox of `npm start`, found through data/local.json.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REDOCLY, REDOCLY_ENV, ROOT, workflowFiles } from './redocly.js';

const USAGE = `Usage: npm run workflows [-- options]

Runs the Arazzo workflows of openapi/workflows/ with \`redocly respect\`. Without options it runs
them against the sandbox of \`npm start\` (data/local.json). The signup workflows act as the account
holder through the reference server's fixture surface, so they need its admin token; without one,
only the agent workflows run. signupExpires needs a sandbox with a manual clock
(VAULT_CLOCK=manual npm start).

Options:
  --base-url <url>      the deployment (default: data/local.json's baseUrl)
  --api-key <key>       an agent's key for the agent workflows (default: VAULT_API_KEY, then
                        data/local.json's agent key)
  --admin-token <tok>   the fixture surface's admin token (default: VAULT_ADMIN_TOKEN, then
                        data/local.json's)
  --page-url <url>      the checkout page of checkoutLookup (default: a page the reference
                        server's demo registry knows)
  --workflow <id>       run only this workflow (repeatable)
  --json <file>         also write respect's JSON log there (it holds the answers, so keep it private)
  -v, --verbose         print every request and answer (keys are masked; the keys the signup
                        workflows issue die with their accounts)
  -h, --help            print this and exit`;

const DEMO_PAGE = 'https://shop.globex.com/cart';

const OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'admin-token': { type: 'string' },
  'page-url': { type: 'string', default: DEMO_PAGE },
  workflow: { type: 'string', multiple: true },
  json: { type: 'string' },
  verbose: { type: 'boolean', short: 'v', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function fail(message: string): never {
  console.error(`workflows: ${message}`);
  process.exit(2);
}

let args: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
try {
  args = parseArgs({ options: OPTIONS }).values;
} catch (e) {
  fail(`${(e as Error).message}\n\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

interface Local {
  baseUrl?: string;
  adminToken?: string;
  keys?: { agent?: string };
}
const localFile = resolve(process.env.VAULT_DATA_DIR ?? join(ROOT, 'data'), 'local.json');
const local: Local = existsSync(localFile) ? (JSON.parse(readFileSync(localFile, 'utf8')) as Local) : {};

const baseUrl = (args['base-url'] ?? local.baseUrl)?.replace(/\/+$/, '');
if (!baseUrl) fail('no --base-url and no data/local.json: start the sandbox with `npm start`, or give --base-url <url>');
const apiKey = args['api-key'] || process.env.VAULT_API_KEY || local.keys?.agent;
if (!apiKey) fail('no agent key: give --api-key or set VAULT_API_KEY');
const adminToken = args['admin-token'] || process.env.VAULT_ADMIN_TOKEN || local.adminToken;

// openSignupAccount is the signup workflows' set-up, run by each of them as a step.
const skip = ['openSignupAccount'];
const files = workflowFiles().filter((file) => adminToken || !file.endsWith('signup.arazzo.yaml'));
if (!adminToken) console.log('workflows: no admin token, so the signup workflows (the account holder acts in them) are not run');

const respect = [
  'respect',
  ...files,
  '--server', `vault=${baseUrl}`,
  '--server', `fixtures=${baseUrl}`,
  '--input', `apiKey=${apiKey}`,
  '--input', `pageUrl=${args['page-url']}`,
  ...(adminToken ? ['--input', `adminToken=${adminToken}`] : []),
  ...skip.flatMap((id) => ['--skip', id]),
  ...(args.workflow ?? []).flatMap((id) => ['--workflow', id]),
  ...(args.json ? ['--json-output', resolve(args.json)] : []),
  ...(args.verbose ? ['--verbose'] : []),
];
const run = spawnSync(REDOCLY, respect, { cwd: ROOT, env: REDOCLY_ENV, stdio: 'inherit' });
process.exit(run.status ?? 1);
