/**
 * Every option of the runner, once: the command-line parser, the config file, `--help` and the
 * README read this table. A config file (`--config`, JSON or YAML) takes the same names in
 * camelCase (`baseUrl`, `signupKey`, `driverOptions`, `limits`); the command line wins over it.
 */

/** `--driver back-office`: the driver over the reference server's back office, bundled with the runner. */
export const BACK_OFFICE_DRIVER = 'back-office';

export type OptionKind = 'string' | 'number' | 'boolean' | 'list' | 'pairs';

export interface OptionDef {
  name: string;
  /** A one-letter form (`-H`), for what users type from other tools. */
  short?: string;
  kind: OptionKind;
  value?: string;
  group: 'Target' | 'Connection' | 'Webhooks' | 'Selection' | 'Running' | 'Reports' | 'Generation';
  help: string;
}

export const OPTIONS: OptionDef[] = [
  { name: 'base-url', kind: 'string', value: 'URL', group: 'Target', help: 'The deployment to test (or VAULT_CONFORMANCE_BASE_URL). Without either, the local reference server of `npm start` (read from data/local.json).' },
  { name: 'proxy-origin', kind: 'string', value: 'URL', group: 'Target', help: "The proxy's HTTP origin, for its health check (default: the base URL, as the reference server serves it)." },
  { name: 'key', kind: 'string', value: 'KEY', group: 'Target', help: 'An API key without the signup permission (or VAULT_CONFORMANCE_KEY).' },
  { name: 'signup-key', kind: 'string', value: 'KEY', group: 'Target', help: 'An API key with the signup permission (or VAULT_CONFORMANCE_SIGNUP_KEY).' },
  { name: 'other-account-key', kind: 'string', value: 'KEY', group: 'Target', help: 'An API key of a second account (or VAULT_CONFORMANCE_OTHER_ACCOUNT_KEY).' },
  { name: 'scoped-key', kind: 'string', value: 'KEY', group: 'Target', help: 'An API key limited to a list of logins (or VAULT_CONFORMANCE_SCOPED_KEY).' },
  { name: 'driver', kind: 'string', value: 'back-office|PATH', group: 'Target', help: 'The account-holder driver: `back-office` (the reference server\'s back office; `fixtures` is its earlier name) or the path of an ES module of your own (see the README). With a driver, each case opens accounts and keys of its own and the keys above are not needed.' },
  { name: 'admin-token', kind: 'string', value: 'TOKEN', group: 'Target', help: 'The admin token of the back-office driver (or VAULT_ADMIN_TOKEN); either implies --driver back-office.' },
  { name: 'driver-option', kind: 'pairs', value: 'NAME=VALUE', group: 'Target', help: 'An option for your driver; repeat it for several.' },
  { name: 'clock', kind: 'string', value: 'auto|manual|real', group: 'Target', help: 'Whether the deployment\'s clock is manual (moves only through the driver). `auto` (default) asks the driver.' },
  { name: 'limit', kind: 'pairs', value: 'ID=VALUE', group: 'Target', help: 'A deployment setting that differs from the document\'s default (section 9 item 4), by its x-limits id: `--limit credential-changes-per-account=40`.' },
  { name: 'judge', kind: 'string', value: 'spec|reference', group: 'Target', help: 'What a case is judged by. `spec` (default with --base-url): only the rules of the specification and of HTTP fail a case; a departure from a choice of the reference server is reported as a deviation. `reference` (default against the local sandbox): every rule of the document, the reference server\'s choices included.' },
  { name: 'header', short: 'H', kind: 'pairs', value: 'NAME=VALUE', group: 'Connection', help: 'A header sent on every request to the deployment (a gateway\'s key, a tenant), the back-office driver\'s included; repeat it for several. `-H "Name: value"`, as curl takes it, does the same. A header a case sets itself wins. Values are masked in reports.' },
  { name: 'ca-cert', kind: 'string', value: 'FILE', group: 'Connection', help: 'Trust the CA certificate(s) of this PEM file, in place of the system\'s (as curl --cacert).' },
  { name: 'client-cert', kind: 'string', value: 'FILE', group: 'Connection', help: 'A client certificate (PEM) for a deployment that asks for one (mutual TLS).' },
  { name: 'client-key', kind: 'string', value: 'FILE', group: 'Connection', help: 'The private key (PEM, unencrypted) of --client-cert, unless that file holds both.' },
  { name: 'insecure', kind: 'boolean', group: 'Connection', help: 'Do not verify the deployment\'s TLS certificate (a sandbox with a self-signed one). Said in the run\'s first line.' },
  { name: 'wait-for-ready', kind: 'number', value: 'S', group: 'Connection', help: 'Before the first case, ask the deployment (GET /v1/recipes) again and again until it answers like the API, for at most S seconds; then give up with exit 2.' },
  { name: 'webhook-listen', kind: 'string', value: 'HOST:PORT', group: 'Webhooks', help: "Where the runner's webhook receiver listens (default 127.0.0.1 and a free port): `0.0.0.0:8443` for a deployment on another host, or behind a tunnel or an ingress." },
  { name: 'webhook-url', kind: 'string', value: 'URL', group: 'Webhooks', help: "The public URL that reaches the receiver (a tunnel's or an ingress's, https:// as section 6 asks), given to the deployment with each case's path after it. Default: the listening address." },
  { name: 'webhook-signature-header', kind: 'string', value: 'NAME', group: 'Webhooks', help: 'The header that carries the signature (section 6 item 6 leaves it open; the driver may declare it as webhookSignature). Default: any header.' },
  { name: 'webhook-timestamp-header', kind: 'string', value: 'NAME', group: 'Webhooks', help: 'The header that carries t, when it is not the signature\'s. Default: any header.' },
  { name: 'webhook-timestamp', kind: 'string', value: 'FORMAT', group: 'Webhooks', help: 'The format of t: unix-seconds, unix-milliseconds, iso-8601 or http-date. Default: any of them.' },
  { name: 'document', kind: 'string', value: 'FILE', group: 'Target', help: 'The bundled OpenAPI document to check against (default: the copy shipped with the runner).' },
  { name: 'only', kind: 'list', value: 'ID|GLOB', group: 'Selection', help: 'Run only these cases: an id or a glob (`getTokenCatalog/*`, `*/auth-*`); repeat it for several.' },
  { name: 'skip', kind: 'list', value: 'ID|GLOB', group: 'Selection', help: 'Leave out these cases (after --only); repeat it for several.' },
  { name: 'section', kind: 'list', value: 'N', group: 'Selection', help: 'Run only the cases that prove section N or a subsection of it (`4.6`, `8`); repeat it for several.' },
  { name: 'tag', kind: 'list', value: 'TAG|!TAG', group: 'Selection', help: 'Run only the cases with this tag (or, led by !, without it); repeat it for several, all of which hold. Tags come from what each case declares: must, should, spec, http, reference, needs-driver, needs-keys, needs-manual-clock, webhooks, spends, creates-data, waits, generated. --list shows each case\'s.' },
  { name: 'level', kind: 'string', value: 'must|should', group: 'Selection', help: '`must` runs only the cases of requirements; `should` (default) runs them all.' },
  { name: 'spend', kind: 'boolean', group: 'Selection', help: 'Also run the cases that spend a rate limit, budget or ceiling, or create data the runner cannot remove. On by default against the local sandbox of data/local.json; off against any --base-url.' },
  { name: 'no-spend', kind: 'boolean', group: 'Selection', help: 'Never run those cases, even against the local sandbox.' },
  { name: 'list', kind: 'boolean', group: 'Selection', help: 'List the selected cases with what each needs and costs, and exit.' },
  { name: 'jobs', kind: 'number', value: 'N', group: 'Running', help: 'Cases run at once (default 4). Each runs on accounts of its own.' },
  { name: 'seed', kind: 'number', value: 'N', group: 'Running', help: 'Seed of every generated value (default: random, printed), so a run can be replayed.' },
  { name: 'repeat', kind: 'number', value: 'N', group: 'Running', help: 'Run each case N times; it passes only if every run passes (to find flaky behaviour).' },
  { name: 'max-rate', kind: 'number', value: 'N', group: 'Running', help: 'Requests per second outside the cases that test limits (default 20; 0 against the local sandbox: no pace). Retry-After is always honoured.' },
  { name: 'timeout', kind: 'string', value: 'S', group: 'Running', help: 'Seconds one request may take: its connection, the answer\'s head and its whole body (default 15), as every duration of the runner; `1500ms` for milliseconds.' },
  { name: 'case-timeout', kind: 'number', value: 'S', group: 'Running', help: 'Time one case may take (default 120).' },
  { name: 'max-failures', kind: 'number', value: 'N', group: 'Running', help: 'Stop after N cases failed or errored (a target that went down, say): the cases not yet started are reported as not run, and every report is still written.' },
  { name: 'accept-incomplete', kind: 'boolean', group: 'Running', help: 'Exit 0 although some cases could not run for lack of a capability (no driver, a driver method, a manual clock, a key not given). Without it such a run exits 4. Cases left out by your own choice never change the exit status.' },
  { name: 'quiet', kind: 'boolean', group: 'Reports', help: 'Print the failures and the summary only.' },
  { name: 'verbose', kind: 'boolean', group: 'Reports', help: 'Print a line for every case not run too (by default they are counted by reason at the end).' },
  { name: 'expect-fail', kind: 'string', value: 'FILE', group: 'Reports', help: 'Known deviations: a JSON or YAML object of case id (or glob) to reason. They are reported as known and do not fail the run; one that passes fails the run, so the file stays true.' },
  { name: 'json', kind: 'string', value: 'FILE', group: 'Reports', help: 'Write every result, with failures and coverage, as JSON.' },
  { name: 'junit', kind: 'string', value: 'FILE', group: 'Reports', help: 'Write JUnit XML (one testcase per case, grouped by section).' },
  { name: 'coverage', kind: 'string', value: 'FILE', group: 'Reports', help: 'Write the contract-coverage table (operation × status × code) as Markdown.' },
  { name: 'html', kind: 'string', value: 'FILE', group: 'Reports', help: 'Write one self-contained HTML page (opens offline): the summary, each failure with its request and response, the deviations, why cases did not run, and the coverage table.' },
  { name: 'har', kind: 'string', value: 'FILE', group: 'Reports', help: 'Write every request and response of the run as HAR 1.2, each entry tagged with its case id (`_caseId`); keys, tokens and link tokens masked.' },
  { name: 'contract-diff', kind: 'string', value: 'FILE', group: 'Reports', help: 'A contract diff (dist/contract/diff.json from `npm run check:breaking`): the report names the cases covering each changed operation.' },
  { name: 'generate', kind: 'number', value: 'N', group: 'Generation', help: 'After the catalogue, send N requests generated from the document: valid ones, ones that break exactly one rule, and stateful walks through the signup workflow. Reproducible with --seed; a failure is shrunk to a minimal request and printed as curl.' },
  { name: 'generate-time', kind: 'number', value: 'S', group: 'Generation', help: 'Stop generating after S seconds (default 600), whatever N says.' },
  { name: 'generate-only', kind: 'boolean', group: 'Generation', help: 'Generate without running the catalogue first.' },
  { name: 'delete-accounts', kind: 'list', value: 'ID,ID', group: 'Running', help: 'Delete these accounts through the driver (--driver and its options, as the run that left them gave) and exit: what a stopped run lists as left behind.' },
  { name: 'config', kind: 'string', value: 'FILE', group: 'Running', help: 'Read options from a JSON or YAML file (same names in camelCase); the command line wins.' },
  { name: 'help', kind: 'boolean', group: 'Running', help: 'Show this help.' },
  { name: 'version', kind: 'boolean', group: 'Running', help: 'Show the runner\'s version and the document\'s.' },
];

/** The environment the runner reads, for `--help`: secrets kept out of the command line (and `ps`), and the proxy. */
export const ENVIRONMENT: { name: string; help: string }[] = [
  { name: 'VAULT_CONFORMANCE_BASE_URL', help: 'as --base-url' },
  { name: 'VAULT_CONFORMANCE_KEY', help: 'as --key' },
  { name: 'VAULT_CONFORMANCE_SIGNUP_KEY', help: 'as --signup-key' },
  { name: 'VAULT_CONFORMANCE_OTHER_ACCOUNT_KEY', help: 'as --other-account-key' },
  { name: 'VAULT_CONFORMANCE_SCOPED_KEY', help: 'as --scoped-key' },
  { name: 'VAULT_ADMIN_TOKEN', help: 'as --admin-token' },
  { name: 'HTTPS_PROXY, HTTP_PROXY', help: 'an http:// proxy for https (a CONNECT tunnel) and http targets; lowercase names too' },
  { name: 'NO_PROXY', help: 'hosts reached directly: names, domains (.example.com), IPs, each with an optional :port, or *' },
];

export type Parsed = Record<string, string | number | boolean | string[] | Record<string, string>>;

export class UsageError extends Error {}

export function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

const BY_NAME = new Map(OPTIONS.map((o) => [o.name, o]));
const BY_SHORT = new Map(OPTIONS.filter((o) => o.short).map((o) => [`-${o.short}`, o]));

/** Parses argv into camelCase keys; an unknown option or a bad value is a UsageError. */
export function parseArgs(argv: string[]): Parsed {
  const out: Parsed = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const short = BY_SHORT.get(arg);
    if (short) {
      const value = argv[++i];
      if (value === undefined) throw new UsageError(`${arg} needs a value (${short.value})`);
      out[camel(short.name)] = coerce(short, value, out[camel(short.name)]);
      continue;
    }
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"; options start with -- (see --help)`);
    const [flag, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const def = BY_NAME.get(flag);
    if (!def) throw new UsageError(`unknown option --${flag} (see --help)`);
    const key = camel(def.name);
    if (def.kind === 'boolean') {
      if (inline !== undefined) throw new UsageError(`--${flag} takes no value`);
      out[key] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${flag} needs a value (${def.value})`);
    out[key] = coerce(def, value, out[key]);
  }
  return out;
}

const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/s;

export function coerce(def: OptionDef, value: unknown, previous?: unknown): Parsed[string] {
  const where = `--${def.name}`;
  switch (def.kind) {
    case 'number': {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0) throw new UsageError(`${where} needs a whole number, got "${value}"`);
      return n;
    }
    case 'list':
      return [...((previous as string[] | undefined) ?? []), ...(Array.isArray(value) ? value.map(String) : [String(value)])];
    case 'pairs': {
      const pairs = { ...((previous as Record<string, string> | undefined) ?? {}) };
      if (typeof value === 'object' && value !== null) {
        for (const [k, v] of Object.entries(value)) pairs[k] = String(v);
        return pairs;
      }
      // A header may be given as curl takes it, `Name: value`, as well as NAME=VALUE.
      const m = (def.name === 'header' ? HEADER_LINE.exec(String(value)) : null) ?? /^([^=]+)=(.*)$/s.exec(String(value));
      if (!m) throw new UsageError(`${where} needs NAME=VALUE${def.name === 'header' ? ' or "Name: value"' : ''}, got "${value}"`);
      pairs[m[1]!] = m[2]!;
      return pairs;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw new UsageError(`${where} must be true or false in the config file`);
      return value;
    default:
      return String(value);
  }
}

/** The config file's own name for an option: a repeatable NAME=VALUE option is an object in the plural (`driverOptions`, `limits`, `headers`). */
export function configName(def: OptionDef): string {
  if (def.kind === 'pairs') return `${camel(def.name)}s`;
  return camel(def.name);
}
