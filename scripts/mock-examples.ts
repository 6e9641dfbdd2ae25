// Writes the mock guide's (openapi/guides/mock.md) list of the Prism mock's answers, per operation, from the bundle
// (dist/openapi.json): each documented status with the example names `Prefer: example=<name>`
// selects, and the operations without a success response, which Prism answers with their lowest
// status. With --check, fails when the guide differs from a fresh generation, as
// `npm run check:generated` does for the client's generated files.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './redocly.js';

type Node = Record<string, any>;

const BUNDLE = join(ROOT, 'dist', 'openapi.json');
/** The page that carries the generated list. */
export const MOCK_PAGE = join(ROOT, 'openapi', 'guides', 'mock.md');
const BEGIN = '<!-- mock examples: generated from the document by `npm run generate`; do not edit -->';
const END = '<!-- end of mock examples -->';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
// Answers of the server's HTTP layer, documented on every operation: not what an operation is about.
const HTTP_LAYER = ['#/components/responses/RequestTimeout', '#/components/responses/RequestHeadersTooLarge'];

function deref(doc: Node, node: unknown): any {
  let current: any = node;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at: any, key: string) => at?.[key], doc);
  }
  return current;
}

const exampleNames = (doc: Node, response: unknown) => Object.keys(deref(doc, response)?.content?.['application/json']?.examples ?? {});
/** The `code`s the response's examples carry, in order, once each. */
const exampleCodes = (doc: Node, response: unknown) => [
  ...new Set(Object.values<Node>(deref(doc, response)?.content?.['application/json']?.examples ?? {}).map((e) => deref(doc, e)?.value?.code).filter((c) => typeof c === 'string')),
];
/** An example name is what `Prefer` selects, not the answer's `code`: say both, so neither is mistaken for the other. */
const describeLayer = (doc: Node, response: unknown) => {
  const names = exampleNames(doc, response).map((n) => `\`${n}\``);
  const codes = exampleCodes(doc, response).map((c) => `\`${c}\``);
  return `example ${names.join(', ')}, code ${codes.join(', ')}`;
};

export function renderMockExamples(doc: Node): string {
  const rows: string[] = [];
  const noSuccess: string[] = [];
  const layer = new Map<string, string>();
  for (const [path, rawItem] of Object.entries<Node>(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const statuses = Object.keys(op.responses ?? {});
      const fromLayer = (status: string) => HTTP_LAYER.includes(op.responses[status]?.$ref);
      for (const status of statuses.filter(fromLayer)) layer.set(status, describeLayer(doc, op.responses[status]));
      const cells = statuses
        .filter((status) => !fromLayer(status))
        .map((status) => {
          const names = exampleNames(doc, op.responses[status]);
          return `${status}: ${names.length > 0 ? names.map((n) => `\`${n}\``).join(', ') : 'no body'}`;
        });
      const page = statuses.some((s) => deref(doc, op.responses[s])?.content?.['text/html']) ? ' (with `Accept: text/html`: `page`)' : '';
      rows.push(`| \`${op.operationId}\` | \`${method.toUpperCase()} ${path}\` | ${cells.join('<br>')}${page} |`);
      if (!statuses.some((s) => s.startsWith('2'))) {
        const lowest = [...statuses].sort()[0];
        const own = statuses.filter((s) => !fromLayer(s));
        noSuccess.push(
          `- \`${method.toUpperCase()} ${path}\` (\`${op.operationId}\`) documents no success response, so Prism answers its lowest documented status, ${lowest}` +
            (own.length > 0 && !own.includes(lowest!) ? `, unless \`Prefer: code=${own[0]}\` is sent.` : '.'),
        );
      }
    }
  }
  return [
    BEGIN,
    '| operationId | request | status: names for `Prefer: example=` |',
    '| - | - | - |',
    ...rows,
    '',
    '',
    `Every operation also documents the answers of the server's HTTP layer: ${[...layer].map(([status, names]) => `${status} (${names})`).join(' and ')}.`,
    ...(noSuccess.length > 0 ? ['', ...noSuccess] : []),
    END,
  ].join('\n');
}

/** The page's text with its generated block replaced by `block`. */
export function withBlock(page: string, block: string): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`openapi/guides/mock.md has no block between "${BEGIN}" and "${END}"`);
  return page.slice(0, start) + block + page.slice(end + END.length);
}

if (process.argv[1]?.endsWith('mock-examples.ts')) {
  if (!existsSync(BUNDLE)) {
    console.error('mock examples: dist/openapi.json is missing; run "npm run bundle" first');
    process.exit(1);
  }
  const page = readFileSync(MOCK_PAGE, 'utf8');
  const fresh = withBlock(page, renderMockExamples(JSON.parse(readFileSync(BUNDLE, 'utf8')) as Node));
  if (!process.argv.includes('--check')) {
    writeFileSync(MOCK_PAGE, fresh);
    console.log('mock examples: dist/openapi.json -> openapi/guides/mock.md');
  } else if (fresh === page) {
    console.log('check:generated: the mock examples of openapi/guides/mock.md are up to date');
  } else {
    console.error('check:generated: the mock examples of openapi/guides/mock.md differ from the document; run "npm run generate" and commit openapi/guides/mock.md');
    process.exit(1);
  }
}
