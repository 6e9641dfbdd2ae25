// Lint rules for the conventions of openapi/README.md that Redocly's configurable rules cannot
// express: they compare one part of the document with another (an operation with the root, a
// response with the shared `Error` schema, the document with extensions.md).
//
// Lessons:
// - Inside a visitor, children that are `$ref`s are still references, and a `$ref` is relative
//   to the file it is written in; `follow` resolves against that file, never the visited one.
// - Top-level visitors see a shared node (components/responses/Unauthorized.yaml) once, so the
//   per-operation rules start at `Operation` and resolve what they need by hand.
// - A rule that throws stops every rule on the document, so every read is guarded.
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { follow, isObject, member, MAX_REF_HOPS, isRef, reporter } from './resolve.js';
import { ConstraintBasis } from './constraint-basis.js';
import { LimitShape } from './limit-shape.js';

const CLIENT_ERROR = /^4(\d\d|XX)$/;
const SECTION_NUMBER = /^\d+(\.\d+)*$/;
const JSON_MEDIA_TYPE = /^application\/(.+\+)?json$/;
const EXTENSIONS_DOC = new URL('../extensions.md', import.meta.url);

/** The component name a `$ref` target stands for: `Error` for `Error.yaml` or `#/components/schemas/Error`. */
function componentName(location) {
  const pointer = location.pointer ?? '';
  const named = /^#\/components\/schemas\/([^/]+)$/.exec(pointer);
  if (named) return decodeURIComponent(named[1]).replace(/~1/g, '/').replace(/~0/g, '~');
  if (pointer === '' || pointer === '#' || pointer === '#/') {
    const file = location.source.absoluteRef;
    return basename(file, extname(file));
  }
  return undefined;
}

/** Whether `raw` (written at `location`) is a `$ref` whose target, after any hops, is one of `names`. */
function refersTo(ctx, raw, location, names) {
  let node = raw;
  let at = location;
  for (let hop = 0; isRef(node) && hop < MAX_REF_HOPS; hop++) {
    const resolved = ctx.resolve(node, at.source.absoluteRef);
    if (!resolved.location) return false;
    if (names.includes(componentName(resolved.location))) return true;
    node = resolved.node;
    at = resolved.location;
  }
  return false;
}

/** The codes a narrowing member of an error schema allows (`code: {enum}` or `code: {const}`). */
function narrowedCodes(ctx, schemaEntry) {
  const code = member(ctx, member(ctx, schemaEntry, 'properties'), 'code').node;
  if (!isObject(code)) return undefined;
  if (Array.isArray(code.enum) && code.enum.length > 0) return code.enum;
  if ('const' in code) return [code.const];
  return undefined;
}

/** What is wrong with the schema of one JSON media type of an error response, if anything. */
function errorSchemaProblem(ctx, mediaType, errorSchemas) {
  const shared = errorSchemas.map((name) => `\`${name}\``).join(' or ');
  const raw = isObject(mediaType.node) ? mediaType.node.schema : undefined;
  const rawLocation = mediaType.location.child(['schema']);
  if (raw === undefined) return { problem: 'has no schema', location: mediaType.location };
  if (refersTo(ctx, raw, rawLocation, errorSchemas)) {
    return { problem: `is ${shared} without narrowing \`code\`: use allOf: [${errorSchemas[0]}, {properties: {code: {enum|const}}}]`, location: rawLocation };
  }
  const schema = follow(ctx, raw, rawLocation);
  const allOf = member(ctx, schema, 'allOf');
  if (!Array.isArray(allOf.node) || allOf.node.length < 2) {
    return { problem: `is not allOf: [${errorSchemas[0]}, {properties: {code: {enum|const}}}]`, location: schema.location };
  }
  if (!refersTo(ctx, allOf.node[0], allOf.location.child([0]), errorSchemas)) {
    return { problem: `does not have the shared ${shared} as the first member of its allOf`, location: allOf.location.child([0]) };
  }
  const narrows = allOf.node.slice(1).some((_, i) => narrowedCodes(ctx, member(ctx, allOf, i + 1)) !== undefined);
  if (!narrows) return { problem: 'does not narrow `code` with an enum or const', location: allOf.location };
  return {};
}

/** Every code the JSON bodies of a response narrow to, whatever their first `allOf` member. */
function documentedCodes(ctx, response) {
  const codes = new Set();
  const content = member(ctx, response, 'content');
  for (const type of Object.keys(isObject(content.node) ? content.node : {})) {
    const schema = member(ctx, member(ctx, content, type), 'schema');
    const allOf = member(ctx, schema, 'allOf');
    const members = Array.isArray(allOf.node) ? allOf.node.map((_, i) => member(ctx, allOf, i)) : [schema];
    for (const m of members) for (const c of narrowedCodes(ctx, m) ?? []) codes.add(c);
  }
  return codes;
}


function operationName(operation, ctx) {
  return operation.operationId ? `\`${operation.operationId}\`` : `at ${ctx.location.pointer}`;
}

function ErrorResponseSchema(options) {
  const errorSchemas = options?.errorSchemas ?? ['Error'];
  const seen = new Set();
  return {
    Operation: {
      enter(operation, ctx) {
        const report = reporter(ctx, seen);
        const responses = member(ctx, { node: operation, location: ctx.location }, 'responses');
        if (!isObject(responses.node)) return;
        for (const status of Object.keys(responses.node)) {
          if (!CLIENT_ERROR.test(status)) continue;
          const response = member(ctx, responses, status);
          const content = member(ctx, response, 'content');
          if (!isObject(content.node) || Object.keys(content.node).length === 0) {
            report(`The ${status} response has no body; every client error is a JSON \`{code, error}\`.`, response.location);
            continue;
          }
          // A browser may be offered a page for people beside the JSON (an account-holder link's
          // text/html), never instead of it: programs branch on the JSON's `code`.
          const types = Object.keys(content.node);
          const hasJson = types.some((type) => JSON_MEDIA_TYPE.test(type));
          for (const type of types) {
            const mediaType = member(ctx, content, type);
            if (!JSON_MEDIA_TYPE.test(type)) {
              if (!hasJson) report(`The ${status} response is ${type} only; every client error is JSON, a page for people at most beside it.`, mediaType.location);
              continue;
            }
            const { problem, location } = errorSchemaProblem(ctx, mediaType, errorSchemas);
            if (problem) report(`The schema of the ${status} response ${problem}.`, location);
          }
        }
      },
    },
  };
}

function LimitIdsDefined() {
  let defined = new Set();
  return {
    Root: {
      enter(root) {
        defined = new Set(isObject(root['x-limits']) ? Object.keys(root['x-limits']) : []);
      },
    },
    Operation: {
      enter(operation, ctx) {
        const ids = operation['x-limits'];
        if (ids === undefined) return;
        if (!Array.isArray(ids)) {
          ctx.report({ message: '`x-limits` is an array of ids of the root `x-limits`.', location: ctx.location.child(['x-limits']) });
          return;
        }
        ids.forEach((id, i) => {
          if (typeof id !== 'string' || !defined.has(id)) {
            ctx.report({
              message: `\`${String(id)}\` is not a limit of the root \`x-limits\`.`,
              location: ctx.location.child(['x-limits', i]),
            });
          }
        });
      },
    },
  };
}

function ValidationErrorCodeDocumented() {
  return {
    Operation: {
      enter(operation, ctx) {
        const code = operation['x-validation-error-code'];
        if (code === undefined) return;
        const location = ctx.location.child(['x-validation-error-code']);
        const responses = member(ctx, { node: operation, location: ctx.location }, 'responses');
        const badRequest = member(ctx, responses, '400');
        if (!isObject(badRequest.node)) {
          ctx.report({ message: `${operationName(operation, ctx)} has \`x-validation-error-code\` but documents no 400 response.`, location });
          return;
        }
        const documented = documentedCodes(ctx, badRequest);
        if (!documented.has(code)) {
          ctx.report({
            message: `\`x-validation-error-code: ${String(code)}\` is not one of the 400 codes of ${operationName(operation, ctx)} (${[...documented].join(', ') || 'none'}).`,
            location,
          });
        }
      },
    },
  };
}

function documentedExtensions() {
  const text = readFileSync(EXTENSIONS_DOC, 'utf8');
  return new Set([...text.matchAll(/^## `(x-[^`]+)`/gm)].map((m) => m[1]));
}

function ExtensionsDocumented() {
  const documented = documentedExtensions();
  const seen = new Set();
  return {
    any: {
      enter(node, ctx) {
        const prefix = ctx.type?.extensionsPrefix;
        if (!prefix || !isObject(node)) return;
        const report = reporter(ctx, seen);
        for (const key of Object.keys(node)) {
          if (key.startsWith(prefix) && !documented.has(key)) {
            report(`\`${key}\` is not documented in openapi/extensions.md (a "## \`${key}\`" heading).`, ctx.location.child([key]).key());
          }
        }
      },
    },
  };
}

function SecuredOperationResponses() {
  let rootSecurity = [];
  return {
    Root: {
      enter(root) {
        rootSecurity = Array.isArray(root.security) ? root.security : [];
      },
    },
    Operation: {
      enter(operation, ctx) {
        const security = Array.isArray(operation.security) ? operation.security : rootSecurity;
        const secured = security.some((requirement) => isObject(requirement) && Object.keys(requirement).length > 0);
        if (!secured) return;
        const name = operationName(operation, ctx);
        const responses = member(ctx, { node: operation, location: ctx.location }, 'responses');
        if (!isObject(responses.node)) return;
        if (!('401' in responses.node)) {
          ctx.report({ message: `${name} is secured but documents no 401 response.`, location: responses.location.key() });
        }
        for (const status of Object.keys(responses.node)) {
          const headers = member(ctx, member(ctx, responses, status), 'headers').node;
          const names = isObject(headers) ? Object.keys(headers).map((h) => h.toLowerCase()) : [];
          if (!names.includes('cache-control')) {
            ctx.report({
              message: `The ${status} response of secured ${name} has no \`Cache-Control\` header (authenticated responses are \`no-store\`).`,
              location: responses.location.child([status]).key(),
            });
          }
        }
      },
    },
  };
}

function SpecSectionsFormat() {
  return {
    Operation: {
      enter(operation, ctx) {
        const sections = operation['x-spec-sections'];
        if (sections === undefined) return;
        if (!Array.isArray(sections) || sections.length === 0) {
          ctx.report({ message: '`x-spec-sections` is a non-empty array of section numbers.', location: ctx.location.child(['x-spec-sections']) });
          return;
        }
        sections.forEach((section, i) => {
          if (typeof section !== 'string' || !SECTION_NUMBER.test(section)) {
            ctx.report({
              message: `\`${String(section)}\` is not a section number such as "4.8" (a quoted string).`,
              location: ctx.location.child(['x-spec-sections', i]),
            });
          }
        });
      },
    },
  };
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar date YYYY-MM-DD (not 2027-02-30). */
function isIsoDate(text) {
  const match = typeof text === 'string' ? ISO_DATE.exec(text) : null;
  if (!match) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

// The deprecation policy of openapi/README.md: a deprecated operation carries its sunset date in
// `x-sunset` and says so, with that date, in its description; `x-sunset` means nothing without
// `deprecated: true`. The contract gate (scripts/check-breaking.ts) enforces the notice period and
// refuses a removal before the sunset.
function DeprecationPolicy() {
  return {
    Operation: {
      enter(operation, ctx) {
        const name = operationName(operation, ctx);
        const sunset = operation['x-sunset'];
        if (operation.deprecated !== true) {
          if (sunset !== undefined) {
            ctx.report({ message: `${name} has \`x-sunset\` but is not \`deprecated: true\`.`, location: ctx.location.child(['x-sunset']).key() });
          }
          return;
        }
        if (!isIsoDate(sunset)) {
          ctx.report({
            message: `${name} is deprecated, so it needs \`x-sunset\`: the date (YYYY-MM-DD) on or after which it may be removed.`,
            location: sunset === undefined ? ctx.location.child(['deprecated']).key() : ctx.location.child(['x-sunset']),
          });
          return;
        }
        const description = typeof operation.description === 'string' ? operation.description : '';
        if (!/\bdeprecated\b/i.test(description) || !description.includes(sunset)) {
          ctx.report({
            message: `${name} is deprecated: its description needs a note that says so and names the sunset date ${sunset}.`,
            location: ctx.location.child(['description']),
          });
        }
      },
    },
  };
}

// Descriptions are read by integrators in the rendered reference: they speak about the API, not
// about the document as its author would ("this document's choice") nor in the specification's
// shorthand ("Further members: not shown").
const AUTHOR_VOICE = [/\bthis\s+document\b/i, /\bnot\s+shown\b/i];

function IntegratorVoice() {
  const check = (node, ctx) => {
    for (const key of ['summary', 'description']) {
      const text = isObject(node) ? node[key] : undefined;
      if (typeof text !== 'string') continue;
      const found = AUTHOR_VOICE.map((pattern) => pattern.exec(text)).find(Boolean);
      if (found) {
        ctx.report({
          message: `The ${key} says "${found[0].replace(/\s+/g, ' ')}": write to the integrator about the API, not about the document.`,
          location: ctx.location.child([key]),
        });
      }
    }
  };
  return { any: { enter: check } };
}

// Redoc shows server and server-variable descriptions as plain text in the servers box, so Markdown
// there reaches the reader as raw backticks and asterisks.
const MARKDOWN = /[`*_[\]]/;

function PlainServerDescription() {
  const check = (node, ctx) => {
    const text = isObject(node) ? node.description : undefined;
    if (typeof text === 'string' && MARKDOWN.test(text)) {
      ctx.report({ message: 'The servers box shows this description as plain text: write it without Markdown (`, *, _, [ ]).', location: ctx.location.child(['description']) });
    }
  };
  return { Server: { enter: check }, ServerVariable: { enter: check } };
}

// A reader follows these links: a reserved example domain (RFC 2606, RFC 6761) is a placeholder.
const PLACEHOLDER_HOST = /(^|\.)(example|test|invalid|localhost)$|(^|\.)example\.(com|net|org)$/i;

function NoPlaceholderLinks() {
  const check = (url, ctx, at) => {
    if (typeof url !== 'string') return;
    let host;
    try {
      host = new URL(url).hostname;
    } catch {
      return;
    }
    if (PLACEHOLDER_HOST.test(host)) ctx.report({ message: `${url} is a placeholder address (${host}); link to a real page or leave the link out.`, location: ctx.location.child(at) });
  };
  return {
    Info: { enter: (info, ctx) => check(info.termsOfService, ctx, ['termsOfService']) },
    Contact: { enter: (contact, ctx) => check(contact.url, ctx, ['url']) },
    License: { enter: (license, ctx) => check(license.url, ctx, ['url']) },
    ExternalDocs: { enter: (docs, ctx) => check(docs.url, ctx, ['url']) },
  };
}

export default function vaultPlugin() {
  return {
    id: 'vault',
    rules: {
      oas3: {
        'error-response-schema': ErrorResponseSchema,
        'limit-ids-defined': LimitIdsDefined,
        'limit-shape': LimitShape,
        'validation-error-code-documented': ValidationErrorCodeDocumented,
        'extensions-documented': ExtensionsDocumented,
        'secured-operation-responses': SecuredOperationResponses,
        'spec-sections-format': SpecSectionsFormat,
        'deprecation-policy': DeprecationPolicy,
        'integrator-voice': IntegratorVoice,
        'plain-server-description': PlainServerDescription,
        'no-placeholder-links': NoPlaceholderLinks,
        'constraint-basis': ConstraintBasis,
      },
    },
  };
}
