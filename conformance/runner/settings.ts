import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { KeyRole } from './case.js';
import type { Judgement } from './basis.js';
import { BACK_OFFICE_DRIVER, camel, coerce, configName, OPTIONS, UsageError, type Parsed } from './options.js';
import { defaultDocumentPath } from './document.js';
import type { ConnectionSettings } from './http.js';
import { proxySettings } from './proxy.js';
import { checkTags } from './tags.js';
import type { ReceiverSettings } from './webhook-receiver.js';
import { TIMESTAMP_FORMATS, type SignatureDeclaration, type TimestampFormat } from './webhook-signature.js';

/** The names `--driver` takes for it; `fixtures` is its earlier name, still taken. */
const BUNDLED_DRIVER_NAMES = [BACK_OFFICE_DRIVER, 'fixtures'];

/** Everything one run needs to know, from the command line, a config file and data/local.json. */
export interface Settings {
  baseUrl: string;
  proxyOrigin?: string;
  /** The target is the local sandbox of `npm start`, found through data/local.json. */
  local: boolean;
  /** TLS files, staging headers and the environment's proxy (none for the local sandbox: a proxy elsewhere cannot reach this machine's loopback). */
  connection: ConnectionSettings;
  /** `--wait-for-ready`: how long the start-up probe may wait for the deployment to answer like the API. */
  waitForReadyS?: number;
  /** By the specification (and HTTP), or by the reference server's full document. */
  judgement: Judgement;
  keys: Partial<Record<KeyRole, string>>;
  driver?: { module: typeof BACK_OFFICE_DRIVER | string; options: Record<string, string> };
  clock: 'auto' | 'manual' | 'real';
  limits: Record<string, number>;
  document: string;
  only: string[];
  skip: string[];
  sections: string[];
  level: 'must' | 'should';
  tags: string[];
  spend: boolean;
  list: boolean;
  jobs: number;
  seed: number;
  repeat: number;
  maxRate: number;
  timeoutMs: number;
  caseTimeoutMs: number;
  /** Stop after this many cases failed or errored. */
  maxFailures?: number;
  /** Cases not run for a missing capability do not make the run incomplete (exit 4). */
  acceptIncomplete: boolean;
  expectFail?: string;
  json?: string;
  junit?: string;
  coverage?: string;
  html?: string;
  /** `--har FILE`: every exchange of the run as HAR 1.2. */
  har?: string;
  contractDiff?: string;
  /** `--generate N`: generated requests after (or, with `generateOnly`, instead of) the catalogue. */
  generate?: { count: number; timeLimitMs: number; only: boolean };
  /** The runner's webhook receiver, and what the options declare of the deployment's signature (section 6). */
  webhooks: { receiver: ReceiverSettings; signature: SignatureDeclaration };
  /** How much the console says (`--quiet`, `--verbose`). */
  verbosity: 'quiet' | 'normal' | 'verbose';
  /** Extra settings other parts of the runner read (generation). */
  extra: Parsed;
}

interface LocalFile {
  baseUrl?: string;
  adminToken?: string;
  keys?: { agent?: string; signup?: string };
}

/** The environment variables that stand for options, so secrets stay out of the command line (and `ps`). */
const FROM_ENVIRONMENT: Record<string, string> = {
  key: 'VAULT_CONFORMANCE_KEY',
  signupKey: 'VAULT_CONFORMANCE_SIGNUP_KEY',
  otherAccountKey: 'VAULT_CONFORMANCE_OTHER_ACCOUNT_KEY',
  scopedKey: 'VAULT_CONFORMANCE_SCOPED_KEY',
  adminToken: 'VAULT_ADMIN_TOKEN',
};

/**
 * `${NAME}` in a config file's strings is the environment variable NAME, and `$${NAME}` the text
 * `${NAME}` itself. An unset variable is a usage error; so is an empty one, which is how a CI
 * system passes a secret that is missing.
 */
function expand(value: unknown, env: NodeJS.ProcessEnv, file: string, where: string): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, escaped: string, name: string) => {
      if (escaped) return `\${${name}}`;
      const found = env[name];
      if (found === undefined || found === '') throw new UsageError(`the config file ${file} uses \${${name}} (in ${where}), which is not set in the environment`);
      return found;
    });
  }
  if (Array.isArray(value)) return value.map((v) => expand(v, env, file, where));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, env, file, `${where}.${k}`)]));
  return value;
}

function readConfigFile(file: string, env: NodeJS.ProcessEnv): Parsed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read the config file ${file}`);
  }
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw new UsageError(`the config file ${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`the config file ${file} must hold an object of options`);
  const out: Parsed = {};
  const byConfigName = new Map(OPTIONS.map((o) => [configName(o), o]));
  for (const [name, value] of Object.entries(raw)) {
    const def = byConfigName.get(name);
    if (!def || ['config', 'help', 'version', 'list', 'delete-accounts'].includes(def.name)) {
      throw new UsageError(`the config file ${file} has an unknown option "${name}" (options are the long names in camelCase, such as baseUrl)`);
    }
    out[camel(def.name)] = coerce(def, expand(value, env, file, name));
  }
  return out;
}

function readLocalFile(cwd: string, env: NodeJS.ProcessEnv): { file: string; local: LocalFile } | undefined {
  const file = resolve(cwd, env.VAULT_DATA_DIR ?? 'data', 'local.json');
  if (!existsSync(file)) return undefined;
  try {
    return { file, local: JSON.parse(readFileSync(file, 'utf8')) as LocalFile };
  } catch {
    throw new UsageError(`${file} is not valid JSON; restart the reference server with npm start`);
  }
}

function generateSettings(o: Parsed): Settings['generate'] {
  if (typeof o.generate !== 'number') {
    if (o.generateOnly === true || o.generateTime !== undefined) throw new UsageError('--generate-only and --generate-time need --generate N');
    return undefined;
  }
  if (o.generate < 1) throw new UsageError('--generate needs at least 1');
  return { count: o.generate, timeLimitMs: (typeof o.generateTime === 'number' ? o.generateTime : 600) * 1000, only: o.generateOnly === true };
}

function webhookSettings(str: (k: string) => string | undefined): Settings['webhooks'] {
  const listen = str('webhookListen') ?? '127.0.0.1:0';
  const m = /^(\[[^\]]+\]|[^:]+|[0-9a-f:]+):(\d{1,5})$/i.exec(listen);
  if (!m || Number(m[2]) > 65535) throw new UsageError(`--webhook-listen needs HOST:PORT (such as 0.0.0.0:8443, or 127.0.0.1:0 for a free port), got "${listen}"`);
  const publicUrl = str('webhookUrl');
  if (publicUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(publicUrl);
    } catch {
      throw new UsageError(`--webhook-url "${publicUrl}" is not a URL`);
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash) throw new UsageError('--webhook-url must be an http:// or https:// URL without a query or fragment');
  }
  const timestamp = str('webhookTimestamp');
  if (timestamp !== undefined && !(timestamp in TIMESTAMP_FORMATS)) throw new UsageError(`--webhook-timestamp must be one of ${Object.keys(TIMESTAMP_FORMATS).join(', ')}, got "${timestamp}"`);
  return {
    receiver: { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]), publicUrl },
    signature: { header: str('webhookSignatureHeader'), timestampHeader: str('webhookTimestampHeader'), timestamp: timestamp as TimestampFormat | undefined },
  };
}

function checkedTags(tags: string[]): string[] {
  checkTags(tags);
  return tags;
}

/** The longest wait for one answer a whole number of seconds can mean: a larger one was meant as milliseconds. */
const MAX_ANSWER_WAIT_S = 600;

/** `--timeout`: seconds (`15`, `2.5`, `15s`) or milliseconds (`1500ms`), as a number of milliseconds. */
function durationMs(value: unknown, defaultS: number): number {
  if (value === undefined) return defaultS * 1000;
  const text = String(value).trim();
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text);
  if (!m) throw new UsageError(`--timeout needs seconds (such as 15) or milliseconds with ms (such as 1500ms), got "${text}"`);
  const n = Number(m[1]);
  if (m[2] === 'ms') return Math.max(1, Math.round(n));
  if (n > MAX_ANSWER_WAIT_S && m[2] === undefined) {
    throw new UsageError(`--timeout is in seconds, as every duration of the runner; ${text} s is over ${MAX_ANSWER_WAIT_S} s: give ${n >= 1000 ? n / 1000 : n} if seconds were meant, or ${text}ms`);
  }
  if (n <= 0) throw new UsageError('--timeout needs more than 0');
  return Math.round(n * 1000);
}

/** Merges the config file under the command line, then fills the local sandbox's settings when no target is given. */
export function resolveSettings(cli: Parsed, cwd: string, env: NodeJS.ProcessEnv): Settings {
  const fromFile = typeof cli.config === 'string' ? readConfigFile(resolve(cwd, cli.config), env) : {};
  const o: Parsed = { ...fromFile, ...cli };
  const pairs = (k: string) => ({ ...((fromFile[k] as Record<string, string>) ?? {}), ...((cli[k] as Record<string, string>) ?? {}) });
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
  // The command line, then the config file, then the environment.
  const secret = (k: string) => str(k) ?? (env[FROM_ENVIRONMENT[k]!] || undefined);
  const num = (k: string, d: number) => (typeof o[k] === 'number' ? (o[k] as number) : d);

  let baseUrl = str('baseUrl') ?? (env.VAULT_CONFORMANCE_BASE_URL || undefined);
  let local = false;
  const keys: Partial<Record<KeyRole, string>> = {
    key: secret('key'),
    signupKey: secret('signupKey'),
    otherAccountKey: secret('otherAccountKey'),
    scopedKey: secret('scopedKey'),
  };
  let adminToken = secret('adminToken');
  if (!baseUrl) {
    const found = readLocalFile(cwd, env);
    if (!found) {
      throw new UsageError('no --base-url and no data/local.json: start the reference server with `npm start`, or give --base-url <url>');
    }
    if (!found.local.baseUrl) throw new UsageError(`${found.file} names no baseUrl; restart the reference server with npm start`);
    baseUrl = found.local.baseUrl;
    local = true;
    keys.key ??= found.local.keys?.agent;
    keys.signupKey ??= found.local.keys?.signup;
    adminToken ??= found.local.adminToken;
  }
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url "${baseUrl}" is not a URL; give one such as https://vault.example.com`);
  }
  if (!['http:', 'https:'].includes(parsedUrl.protocol)) throw new UsageError(`--base-url must be http:// or https://, got ${parsedUrl.protocol}`);

  const driverOptions = pairs('driverOption');
  if (adminToken) driverOptions['admin-token'] ??= adminToken;
  const driverName = str('driver') ?? (driverOptions['admin-token'] ? BACK_OFFICE_DRIVER : undefined);
  const clock = str('clock') ?? 'auto';
  if (!['auto', 'manual', 'real'].includes(clock)) throw new UsageError(`--clock must be auto, manual or real, got "${clock}"`);
  const judgement = str('judge') ?? (local ? 'reference' : 'spec');
  if (!['spec', 'reference'].includes(judgement)) throw new UsageError(`--judge must be spec or reference, got "${judgement}"`);
  const level = str('level') ?? 'should';
  if (!['must', 'should'].includes(level)) throw new UsageError(`--level must be must or should, got "${level}"`);
  const limits: Record<string, number> = {};
  for (const [id, raw] of Object.entries(pairs('limit'))) {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--limit ${id} needs a whole number, got "${raw}"`);
    limits[id] = n;
  }
  if (o.spend === true && o.noSpend === true) throw new UsageError('--spend and --no-spend contradict each other; give one');
  const jobs = num('jobs', 4);
  if (jobs < 1) throw new UsageError('--jobs needs at least 1');
  const repeat = num('repeat', 1);
  if (repeat < 1) throw new UsageError('--repeat needs at least 1');
  if (o.maxFailures === 0) throw new UsageError('--max-failures needs at least 1');
  if (o.quiet === true && o.verbose === true) throw new UsageError('--quiet and --verbose contradict each other; give one');
  const path = (k: string) => (str(k) ? resolve(cwd, str(k)!) : undefined);

  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    proxyOrigin: str('proxyOrigin')?.replace(/\/+$/, ''),
    local,
    connection: { headers: stagingHeaders(pairs('header')), caCert: path('caCert'), clientCert: path('clientCert'), clientKey: path('clientKey'), insecure: o.insecure === true, proxy: local ? {} : proxySettings(env) },
    waitForReadyS: typeof o.waitForReady === 'number' && o.waitForReady > 0 ? o.waitForReady : undefined,
    judgement: judgement as Judgement,
    keys,
    driver: driverName ? { module: BUNDLED_DRIVER_NAMES.includes(driverName) ? BACK_OFFICE_DRIVER : resolve(cwd, driverName), options: driverOptions } : undefined,
    clock: clock as Settings['clock'],
    limits,
    document: path('document') ?? defaultDocumentPath(),
    only: (o.only as string[] | undefined) ?? [],
    skip: (o.skip as string[] | undefined) ?? [],
    sections: (o.section as string[] | undefined) ?? [],
    tags: checkedTags((o.tag as string[] | undefined) ?? []),
    level: level as Settings['level'],
    spend: o.noSpend === true ? false : o.spend === true || local,
    list: o.list === true,
    jobs,
    seed: typeof o.seed === 'number' ? o.seed : Math.floor(Math.random() * 2 ** 31),
    repeat,
    maxRate: num('maxRate', local ? 0 : 20),
    timeoutMs: durationMs(o.timeout, 15),
    caseTimeoutMs: num('caseTimeout', 120) * 1000,
    maxFailures: typeof o.maxFailures === 'number' ? o.maxFailures : undefined,
    acceptIncomplete: o.acceptIncomplete === true,
    expectFail: path('expectFail'),
    json: path('json'),
    junit: path('junit'),
    coverage: path('coverage'),
    html: path('html'),
    har: path('har'),
    contractDiff: path('contractDiff'),
    generate: generateSettings(o),
    webhooks: webhookSettings(str),
    verbosity: o.quiet === true ? 'quiet' : o.verbose === true ? 'verbose' : 'normal',
    extra: o,
  };
}

/** Headers the cases own (some leave them out on purpose) or that frame the connection: never sent on every request. */
const NOT_STAGING: Record<string, string> = {
  authorization: 'the cases set Authorization themselves, and leave it out on purpose; give the API keys with --key and the others (or VAULT_CONFORMANCE_KEY and the others)',
  'content-type': 'the cases set Content-Type themselves, and leave it out on purpose',
  host: 'the runner sends the host of --base-url',
  expect: 'the cases set Expect themselves',
  'accept-encoding': 'the runner accepts gzip, deflate and br, and decodes them',
};
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'proxy-connection', 'upgrade', 'te', 'trailer']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function stagingHeaders(pairs: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(pairs)) {
    if (!TOKEN.test(name)) throw new UsageError(`--header ${JSON.stringify(name)}: not a header name (give NAME=VALUE)`);
    const lower = name.toLowerCase();
    if (NOT_STAGING[lower]) throw new UsageError(`--header ${name}: ${NOT_STAGING[lower]}`);
    if (FRAMING.has(lower)) throw new UsageError(`--header ${name}: it frames the message or the connection, which the runner does itself`);
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) throw new UsageError(`--header ${name}: its value holds a line break or another character a header cannot carry`);
  }
  return pairs;
}
