import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { KeyRole } from './case.js';
import type { Judgement } from './basis.js';
import { coerce, configName, OPTIONS, UsageError, type Parsed } from './options.js';
import { defaultDocumentPath } from './document.js';

/** Everything one run needs to know, from the command line, a config file and data/local.json. */
export interface Settings {
  baseUrl: string;
  proxyOrigin?: string;
  /** The target is the local sandbox of `npm start`, found through data/local.json. */
  local: boolean;
  /** By the specification (and HTTP), or by the reference server's full document. */
  judgement: Judgement;
  keys: Partial<Record<KeyRole, string>>;
  driver?: { module: 'fixtures' | string; options: Record<string, string> };
  clock: 'auto' | 'manual' | 'real';
  limits: Record<string, number>;
  document: string;
  only: string[];
  skip: string[];
  sections: string[];
  level: 'must' | 'should';
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
  contractDiff?: string;
  /** `--generate N`: generated requests after (or, with `generateOnly`, instead of) the catalogue. */
  generate?: { count: number; timeLimitMs: number; only: boolean };
  /** Extra settings other parts of the runner read (generation). */
  extra: Parsed;
}

interface LocalFile {
  baseUrl?: string;
  adminToken?: string;
  keys?: { agent?: string; signup?: string };
}

function readConfigFile(file: string): Parsed {
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
    if (!def || ['config', 'help', 'version', 'list'].includes(def.name)) {
      throw new UsageError(`the config file ${file} has an unknown option "${name}" (options are the long names in camelCase, such as baseUrl)`);
    }
    const key = def.name === 'driver-option' ? 'driverOption' : def.name === 'limit' ? 'limit' : configName(def);
    out[key] = coerce(def, value);
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

/** Merges the config file under the command line, then fills the local sandbox's settings when no target is given. */
export function resolveSettings(cli: Parsed, cwd: string, env: NodeJS.ProcessEnv): Settings {
  const fromFile = typeof cli.config === 'string' ? readConfigFile(resolve(cwd, cli.config)) : {};
  const o: Parsed = { ...fromFile, ...cli };
  const pairs = (k: string) => ({ ...((fromFile[k] as Record<string, string>) ?? {}), ...((cli[k] as Record<string, string>) ?? {}) });
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
  const num = (k: string, d: number) => (typeof o[k] === 'number' ? (o[k] as number) : d);

  let baseUrl = str('baseUrl');
  let local = false;
  const keys: Partial<Record<KeyRole, string>> = {
    key: str('key'),
    signupKey: str('signupKey'),
    otherAccountKey: str('otherAccountKey'),
    scopedKey: str('scopedKey'),
  };
  let adminToken = str('adminToken');
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
  const driverName = str('driver') ?? (driverOptions['admin-token'] ? 'fixtures' : undefined);
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

  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    proxyOrigin: str('proxyOrigin')?.replace(/\/+$/, ''),
    local,
    judgement: judgement as Judgement,
    keys,
    driver: driverName ? { module: driverName === 'fixtures' ? 'fixtures' : resolve(cwd, driverName), options: driverOptions } : undefined,
    clock: clock as Settings['clock'],
    limits,
    document: str('document') ? resolve(cwd, str('document')!) : defaultDocumentPath(),
    only: (o.only as string[] | undefined) ?? [],
    skip: (o.skip as string[] | undefined) ?? [],
    sections: (o.section as string[] | undefined) ?? [],
    level: level as Settings['level'],
    spend: o.noSpend === true ? false : o.spend === true || local,
    list: o.list === true,
    jobs,
    seed: typeof o.seed === 'number' ? o.seed : Math.floor(Math.random() * 2 ** 31),
    repeat,
    maxRate: num('maxRate', local ? 0 : 20),
    timeoutMs: num('timeout', 15000),
    caseTimeoutMs: num('caseTimeout', 120) * 1000,
    maxFailures: typeof o.maxFailures === 'number' ? o.maxFailures : undefined,
    acceptIncomplete: o.acceptIncomplete === true,
    expectFail: str('expectFail') ? resolve(cwd, str('expectFail')!) : undefined,
    json: str('json') ? resolve(cwd, str('json')!) : undefined,
    junit: str('junit') ? resolve(cwd, str('junit')!) : undefined,
    coverage: str('coverage') ? resolve(cwd, str('coverage')!) : undefined,
    html: str('html') ? resolve(cwd, str('html')!) : undefined,
    contractDiff: str('contractDiff') ? resolve(cwd, str('contractDiff')!) : undefined,
    generate: generateSettings(o),
    extra: o,
  };
}
