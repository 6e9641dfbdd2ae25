import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type Ajv2020Type from 'ajv/dist/2020.js';
import type { ApiDocument } from './document.js';
import type { Basis } from './basis.js';
import { basisOfMark, keptBasis } from './spec-view.js';

// ajv is CommonJS; requiring it sidesteps the default-export shapes ESM gives a CommonJS class.
const Ajv2020 = createRequire(import.meta.url)('ajv/dist/2020.js') as { default: typeof Ajv2020Type.default };

/**
 * Validators for the document's schemas, addressed by JSON pointer (OpenAPI 3.1 schemas are JSON
 * Schema 2020-12). The whole document is one schema resource, so every `$ref` resolves as written.
 */
export class Schemas {
  private readonly ajv: InstanceType<typeof Ajv2020Type.default>;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: ApiDocument) {
    this.ajv = new Ajv2020.default({
      strict: false,
      allErrors: true,
      validateSchema: false,
      // The failing schema itself comes with each error, so a problem can say where its rule is marked.
      verbose: true,
      // The document's formats are annotations here, as the specification attaches no rule to them.
      formats: { int64: true, int32: true },
    });
    this.ajv.addSchema(document.doc, 'doc');
  }

  /** Validates `value` against the schema at `pointer` (`#/...`); the problems, or an empty list. */
  validate(pointer: string, value: unknown): Problem[] {
    let fn = this.compiled.get(pointer);
    if (!fn) {
      const found = this.ajv.getSchema(`doc${pointer}`);
      if (!found) throw new Error(`no schema at ${pointer}`);
      this.compiled.set(pointer, found);
      fn = found;
    }
    if (fn(value)) return [];
    return describe(fn.errors ?? []);
  }
}

/** One problem of a value: in words, and the basis its schema marks for the rule, when it marks one. */
export interface Problem {
  message: string;
  basis?: Basis;
}

/** The `x-basis` mark of the rule an error broke, on the schema that holds it, or the requirement that kept that schema whole. */
function markOf(e: ErrorObject): Basis | undefined {
  const parent = e.parentSchema as { 'x-basis'?: Record<string, unknown> } | undefined;
  const marks = parent?.['x-basis'];
  const own = !marks ? undefined : e.keyword === 'required' ? basisOfMark(marks[`required/${(e.params as { missingProperty: string }).missingProperty}`]) : basisOfMark(marks[e.keyword]);
  return own ?? keptBasis(parent);
}

/** ajv's errors as short sentences, the deepest first, without the noise of anyOf/oneOf branches. */
function describe(errors: ErrorObject[]): Problem[] {
  const out = new Map<string, Problem>();
  const meaningful = errors.filter((e) => !['anyOf', 'oneOf', 'allOf', 'if'].includes(e.keyword));
  for (const e of meaningful.length > 0 ? meaningful : errors) {
    const at = e.instancePath || '/';
    let message: string;
    if (e.keyword === 'additionalProperties') message = `${at}: has a member the document does not allow: "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    else if (e.keyword === 'enum') message = `${at}: ${e.message} (${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')})`;
    else if (e.keyword === 'const') message = `${at}: must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    else message = `${at}: ${e.message}`;
    if (!out.has(message)) out.set(message, { message, basis: markOf(e) });
  }
  return [...out.values()].slice(0, 8);
}
