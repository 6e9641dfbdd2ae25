import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Contract } from '../contract.js';
import type { components } from '../../client/generated/schema.js';
import { hostName } from './sites.js';

/**
 * The registry release: the versioned file of recipes shipped in server/registry/, loaded once at
 * start-up and checked against the document's `Recipe` schema and the server's own recipe rules,
 * the same ones a submission passes. A broken release stops the server with one line.
 */

export const REGISTRY_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'registry');

// Spelled by the document (generated types), so a value it adds or drops breaks the build here.
export type RecipeKind = components['schemas']['RecipeKind'];
export type RecipeStatus = components['schemas']['RecipeStatus'];

/** The smallest recipe body the document defines; the object is open, other members are kept. */
export interface Recipe {
  key: string;
  kind: RecipeKind;
  status: RecipeStatus;
  platform?: string;
  match?: { hosts: string[]; paths?: string[] };
  evidence?: string;
  preconditions?: string[];
  steps?: unknown[];
  [member: string]: unknown;
}

export interface Release {
  registryVersion: string;
  file: string;
  recipes: Recipe[];
}

/** One problem with a recipe, as `errors` of a 400 `invalid_recipe` lists it (RecipeProblem). */
export interface Problem {
  path: string;
  message: string;
}

export const SIGNUP_PREFIX = 'signup:';
/** The `platform` a merchant or signup recipe names when the site runs its own checkout or signup. */
export const CUSTOM_PLATFORM = 'custom';
/** The registryVersion of every contributed recipe (section 9 item 2). */
export const SUBMISSION_VERSION = 'submission';

export class RegistryError extends Error {}

/** The newest release file in the registry folder (`release-<version>.json`, newest by version). */
export function defaultReleaseFile(dir = REGISTRY_DIR): string {
  const files = readdirSync(dir).filter((f) => /^release-.+\.json$/.test(f));
  if (files.length === 0) throw new RegistryError(`no registry release (release-<version>.json) in ${dir}`);
  files.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return join(dir, files[files.length - 1]!);
}

/** Reads and checks a release file; any problem is a RegistryError whose message is one line. */
export function loadRelease(contract: Contract, file = defaultReleaseFile()): Release {
  const fail = (what: string): never => {
    throw new RegistryError(`registry release ${file}: ${what}`);
  };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    fail((e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : `not readable JSON (${oneLine((e as Error).message)})`);
  }
  if (!isObject(data)) return fail('must be an object with registryVersion and recipes');
  const { registryVersion, recipes } = data;
  if (typeof registryVersion !== 'string' || registryVersion.trim() === '' || registryVersion === SUBMISSION_VERSION) {
    fail(`registryVersion must be a release name (a non-empty string other than "${SUBMISSION_VERSION}")`);
  }
  if (!Array.isArray(recipes) || recipes.length === 0) fail('recipes must be a non-empty array');
  const list = recipes as unknown[];
  const validate = schemaValidator(contract, 'Recipe');
  const problems: Problem[] = [];
  list.forEach((recipe, i) => {
    const at = `/recipes/${i}`;
    const found = validate(recipe, at);
    problems.push(...(found.length > 0 ? found : recipeProblems(recipe as Recipe, at)));
  });
  if (problems.length === 0) problems.push(...releaseProblems(list as Recipe[]));
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).map((p) => `${p.path} ${p.message}`);
    fail(`${shown.join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`);
  }
  return { registryVersion: registryVersion as string, file: basename(file), recipes: list as Recipe[] };
}

/** Problems of the release as a whole: every key once, every platform a merchant or signup names present. */
function releaseProblems(recipes: Recipe[]): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  // Kinds by key, so that a release checks in time linear in its size: each key may have several
  // recipes here, since a duplicate is reported but still read.
  const kinds = new Map<string, Set<RecipeKind>>();
  recipes.forEach((r, i) => {
    if (seen.has(r.key)) problems.push({ path: `/recipes/${i}/key`, message: `"${r.key}" is also the key of /recipes/${seen.get(r.key)}` });
    else seen.set(r.key, i);
    const known = kinds.get(r.key);
    if (known) known.add(r.kind);
    else kinds.set(r.key, new Set([r.kind]));
  });
  recipes.forEach((r, i) => {
    if (r.platform === undefined || r.platform === CUSTOM_PLATFORM) return;
    if (kinds.get(r.platform)?.has(platformKindFor(r.kind)) !== true) problems.push({ path: `/recipes/${i}/platform`, message: `names "${r.platform}", which no ${platformKindFor(r.kind)} recipe of the release has` });
  });
  return problems;
}

/** The kind of recipe a merchant (platform) or signup (signup-platform) recipe names in `platform`. */
export function platformKindFor(kind: RecipeKind): RecipeKind {
  return kind === 'signup' || kind === 'signup-platform' ? 'signup-platform' : 'platform';
}

/**
 * The server's own check of a recipe, beyond the document's schemas: the one rule JSON Schema
 * cannot express. Every other rule (keys, kinds, platforms, the characters of a host) is in the
 * document (`Recipe`, `RecipeKindRules`), so generated clients and outside validators know it.
 * It runs on a recipe the schema accepted, and reports in the document's words.
 */
export function recipeProblems(recipe: Recipe, at = ''): Problem[] {
  const problems: Problem[] = [];
  // The pattern checks the characters of a match host; whether it converts to an ASCII host name
  // (every label at most 63 characters, a valid `xn--` label) needs the conversion itself.
  (recipe.match?.hosts ?? []).forEach((host, i) => {
    if (typeof host === 'string' && normalizeHost(host) === null) {
      problems.push({ path: `${at}/match/hosts/${i}`, message: 'must be a host name whose ASCII form has labels of at most 63 characters and at most 253 in all' });
    }
  });
  return problems;
}

/** A host in the form pages are compared in (sites.ts hostName; a final dot dropped), or null. */
export function normalizeHost(value: string): string | null {
  return hostName(value.replace(/\.$/, ''));
}

type Validate = (value: unknown, at?: string) => Problem[];

const validators = new WeakMap<Contract, Map<string, Validate>>();

/**
 * A validator for one component schema of the bundled document (JSON Schema 2020-12, as OpenAPI
 * 3.1 uses), compiled once per contract. Problems come back as JSON Pointers under `at`.
 */
export function schemaValidator(contract: Contract, name: string): Validate {
  let byName = validators.get(contract);
  if (!byName) validators.set(contract, (byName = new Map()));
  const known = byName.get(name);
  if (known) return known;
  const ajv = ajvFor(contract);
  const compiled = ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`) as ValidateFunction | undefined;
  if (!compiled) throw new Error(`the document has no schema ${name}`);
  const validate: Validate = (value, at = '') => (compiled(value) ? [] : toProblems(compiled.errors ?? [], at));
  byName.set(name, validate);
  return validate;
}

const DOC_ID = 'urn:credential-vault:openapi';
const ajvs = new WeakMap<Contract, Ajv2020>();

function ajvFor(contract: Contract) {
  let ajv = ajvs.get(contract);
  if (!ajv) {
    // Not strict: the document's schemas carry `x-` members and OpenAPI's `example`. Verbose, so an
    // error carries the schema it failed, and with it the document's `x-error-message`.
    ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
    ajv.addSchema({ $id: DOC_ID, components: contract.doc.components }, DOC_ID);
    ajvs.set(contract, ajv);
  }
  return ajv;
}

/**
 * Ajv's errors as problems, without the summary entries (`if`, `anyOf`) that repeat a deeper one,
 * in the document's words where it has them (`x-error-message` on the failing schema).
 */
function toProblems(errors: ErrorObject[], at: string): Problem[] {
  const problems: Problem[] = [];
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    let path = `${at}${e.instancePath}`;
    const documented = (e.parentSchema as { 'x-error-message'?: unknown } | undefined)?.['x-error-message'];
    let message = e.message ?? 'is not valid';
    if (e.keyword === 'required') {
      path = `${path}/${escapePointer((e.params as { missingProperty: string }).missingProperty)}`;
      message = 'is required';
    }
    if (e.keyword === 'enum') message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    if (e.keyword === 'false schema') message = 'must not be present';
    if (typeof documented === 'string') message = documented;
    problems.push({ path, message });
  }
  return dedupeProblems(problems);
}

/** Each problem once (same path and message), in first-seen order. */
export function dedupeProblems(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const id = `${p.path}\u0000${p.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
