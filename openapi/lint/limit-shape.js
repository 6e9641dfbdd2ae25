// Each member of the root `x-limits` against openapi/extensions/limit.schema.json, the one place
// a limit's shape is written: the server's and the runner's types are generated from it.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { isObject } from './resolve.js';

const SCHEMA = JSON.parse(readFileSync(new URL('../extensions/limit.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv2020({ allErrors: true }).compile(SCHEMA);

/** Ajv's errors as one line per place; the branches of `oneOf` say it once, in the schema's words. */
function problems(errors) {
  const byPlace = new Map();
  for (const e of errors ?? []) {
    if (e.schemaPath.startsWith('#/oneOf/')) continue;
    const text = e.keyword === 'oneOf' ? 'has exactly one of `value` and `plan`' : e.keyword === 'enum' ? `is one of ${e.params.allowedValues.join(', ')}` : e.message;
    const place = e.keyword === 'required' ? e.instancePath : e.keyword === 'additionalProperties' ? `${e.instancePath}/${e.params.additionalProperty}` : e.instancePath;
    byPlace.set(place, [...(byPlace.get(place) ?? []), e.keyword === 'required' ? `needs \`${e.params.missingProperty}\`` : e.keyword === 'additionalProperties' ? 'is not a member of a limit' : text]);
  }
  return byPlace;
}

export function LimitShape() {
  return {
    Root: {
      enter(root, ctx) {
        const limits = root['x-limits'];
        if (!isObject(limits)) return;
        for (const [id, limit] of Object.entries(limits)) {
          if (validate(limit)) continue;
          for (const [place, texts] of problems(validate.errors)) {
            const path = place.split('/').filter(Boolean);
            ctx.report({
              message: `The limit \`${id}\`${path.length ? ` (${path.join('.')})` : ''} ${texts.join('; ')} (openapi/extensions/limit.schema.json).`,
              location: ctx.location.child(['x-limits', id, ...path]),
            });
          }
        }
      },
    },
  };
}
