// Code samples of every operation, in curl and in TypeScript with the project's client, made from
// the bundled document at bundle time (scripts/bundle.ts) and stored in each operation's
// `x-codeSamples`, which the rendered reference shows. Made from the document's own parameter and
// request examples, base URL and error codes, they change when the document does and never drift
// from it. The tests run the curl samples against the reference server and type-check the TypeScript
// ones against the client (openapi/test/code-samples.e2e.test.ts).
import { errorCodes } from '../client/scripts/document-module.js';

type Node = Record<string, any>;

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
// The rendered reference shows about 56 characters of a sample's line without scrolling: longer
// values are spread over lines.
const LINE_WIDTH = 56;
const FLAT_WIDTH = 44;

/** The environment variables the samples read: the client's own settings (section 8.9). */
export const SAMPLE_ENV = { apiUrl: 'VAULT_API_URL', apiKey: 'VAULT_API_KEY', proxyOrigin: 'PROXY_ORIGIN' } as const;

/** Follows a node's local `$ref`s (`#/...`) to what they name. */
export function deref(doc: Node, node: unknown): any {
  let current: any = node;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    if (hops > 16 || !current.$ref.startsWith('#/')) throw new Error(`cannot follow ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split('/')
      .map((s: string) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at: any, key: string) => at?.[key], doc);
  }
  return current;
}

/** What one call of an operation sends, taken from the document's examples. */
export interface SampleCall {
  operationId: string;
  method: string;
  path: string;
  /** Path parameters by name: their `example`. */
  pathValues: Record<string, string>;
  /** The required query parameters, and the first optional one with an example. */
  query: [string, string][];
  /** The first named example of the JSON request body. */
  body?: unknown;
  /** Whether the call sends an API key. */
  secured: boolean;
  /** The operation's own server (the proxy's health check), else the API's. */
  ownServer: boolean;
  /** Whether a 2xx answer is documented (the retired createLogin has none). */
  succeeds: boolean;
  /** The base URL the samples name: the document's default (the reference server serving the docs puts its own origin in its place). */
  baseUrl: string;
  /** The codes of the operation, with the statuses that answer each, in the document's order. */
  codes: [code: string, statuses: string[]][];
}

export function sampleCall(doc: Node, path: string, method: string): SampleCall {
  const item = deref(doc, doc.paths[path]);
  const op = item[method];
  const params: Node[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(doc, p));
  const pathValues: Record<string, string> = {};
  for (const p of params.filter((p) => p.in === 'path')) {
    if (p.example === undefined) throw new Error(`${op.operationId}: path parameter ${p.name} has no example`);
    pathValues[p.name] = String(p.example);
  }
  const queryParams = params.filter((p) => p.in === 'query');
  const optional = queryParams.find((p) => !p.required && p.example !== undefined);
  const query = queryParams.filter((p) => p.required || p === optional).map((p): [string, string] => [p.name, String(p.example)]);
  const json = deref(doc, op.requestBody)?.content?.['application/json'];
  const firstExample = json ? (json.example ?? deref(doc, Object.values(json.examples ?? {})[0])?.value) : undefined;
  const security: Node[] = op.security ?? doc.security ?? [];
  return {
    operationId: op.operationId,
    method: method.toUpperCase(),
    path,
    pathValues,
    query,
    body: firstExample,
    secured: security.length > 0 && !security.some((s) => Object.keys(s).length === 0),
    ownServer: (op.servers ?? item.servers) !== undefined,
    succeeds: Object.keys(op.responses ?? {}).some((s) => s.startsWith('2')),
    baseUrl: defaultBaseUrl(doc),
    codes: codesWithStatuses(errorCodes(doc, op)),
  };
}

/** The document's default base URL: its first server's, variables filled with their defaults. */
export function defaultBaseUrl(doc: Node): string {
  const server = doc.servers?.[0];
  if (!server) throw new Error('the document names no server');
  return expandServerUrl(server);
}

/** A server's URL with each `{variable}` replaced by its default. */
export function expandServerUrl(server: Node): string {
  return (server.url as string).replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = server.variables?.[name]?.default;
    if (typeof value !== 'string') throw new Error(`server variable ${name} has no default`);
    return value;
  });
}

function codesWithStatuses(byStatus: [string, string[]][]): [string, string[]][] {
  const out = new Map<string, string[]>();
  for (const [status, codes] of byStatus) for (const code of codes) out.set(code, [...(out.get(code) ?? []), status]);
  return [...out];
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function jsonText(value: unknown): string {
  const flat = JSON.stringify(value);
  return flat.length <= FLAT_WIDTH ? flat : JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
}

export function curlSample(call: SampleCall): string {
  const base = call.ownServer ? `$${SAMPLE_ENV.proxyOrigin}` : `$${SAMPLE_ENV.apiUrl}`;
  const setBase = call.ownServer ? '' : `export ${SAMPLE_ENV.apiUrl}=${call.baseUrl}\n`;
  const path = call.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(call.pathValues[name]!));
  const first = [`curl -sS`];
  if (call.query.length > 0) first.push('-G');
  if (call.method !== 'GET' && call.body === undefined) first.push(`-X ${call.method}`);
  first.push(`"${base}${path}"`);
  const lines = [first.join(' ')];
  for (const [name, value] of call.query) lines.push(`--data-urlencode ${shellQuote(`${name}=${value}`)}`);
  if (call.secured) lines.push(`-H "Authorization: Bearer $${SAMPLE_ENV.apiKey}"`);
  if (call.body !== undefined) lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(jsonText(call.body))}`);
  const command = lines.join(' \\\n  ');
  return call.ownServer ? `# ${SAMPLE_ENV.proxyOrigin}: the proxy's origin,\n# such as http://127.0.0.1:4000\n${command}` : `${setBase}${command}`;
}

/** A JSON value as a TypeScript literal in the project's style (single quotes, bare keys). */
export function tsLiteral(value: unknown, indent = '', room = FLAT_WIDTH): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((v) => tsLiteral(v, inner))
    : Object.entries(value).map(([k, v]) => `${IDENTIFIER.test(k) ? k : tsLiteral(k)}: ${tsLiteral(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  const flat = Array.isArray(value) ? `[${entries.join(', ')}]` : `{ ${entries.join(', ')} }`;
  if (flat.length + indent.length <= room && !flat.includes('\n')) return flat;
  return `${open}\n${entries.map((e) => `${inner}${e},`).join('\n')}\n${indent}${close}`;
}

const camel = (title: string) => title.charAt(0).toLowerCase() + title.slice(1);

function resultName(doc: Node, path: string, method: string): string {
  const op = deref(doc, doc.paths[path])[method];
  const success = Object.entries<Node>(op.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  const title = deref(doc, deref(doc, success)?.content?.['application/json']?.schema)?.title;
  return typeof title === 'string' && IDENTIFIER.test(title) ? camel(title) : 'answer';
}

/**
 * The call, and its failure handled the way that type-checks: `isVaultApiError(e, operationId)`
 * narrows `code` to the operation's codes, and the switch names each of them (with the statuses that
 * answer it) and `null`, an answer the document does not describe.
 */
export function typescriptSample(doc: Node, call: SampleCall): string {
  const input: Record<string, unknown> = { ...call.pathValues, ...Object.fromEntries(call.query) };
  if (call.body !== undefined && typeof call.body === 'object' && call.body !== null) {
    Object.assign(input, call.body);
  }
  const name = call.succeeds ? resultName(doc, call.path, call.method.toLowerCase()) : '';
  const opening = call.succeeds ? `  const ${name} = await vault.${call.operationId}(` : `  await vault.${call.operationId}(`;
  const args = Object.keys(input).length > 0 ? tsLiteral(input, '  ', LINE_WIDTH - opening.length - 2) : '';
  const reads = call.ownServer
    ? '// Reads VAULT_PROXY_URL, the proxy.'
    : call.secured
      ? `// Reads ${SAMPLE_ENV.apiUrl} (here ${call.baseUrl})\n// and ${SAMPLE_ENV.apiKey}.`
      : `// Reads ${SAMPLE_ENV.apiUrl} (here ${call.baseUrl});\n// sends no key.`;
  const label = ([code, statuses]: [string, string[]]) => `    case '${code}': // ${statuses.join(', ')}`;
  const final = call.codes.filter(([code]) => code !== 'rate_limited');
  const limited = call.codes.find(([code]) => code === 'rate_limited');
  const cases = [...final.map(label), '      console.error(e.message);', '      break;'];
  // Only rate_limited comes with Retry-After (section 7.1); the client has already retried a read.
  if (limited) cases.push(label(limited), "      console.error(`again in ${e.retryAfter ?? '?'} s:`, e.message);", '      break;');
  return `import { createVaultClient, isVaultApiError } from '@credential-vault/client';

${reads}
const vault = createVaultClient();
try {
${opening}${args});${call.succeeds ? `\n  console.log(${name});` : ''}
} catch (e) {
  if (!isVaultApiError(e, '${call.operationId}')) throw e;
  switch (e.code) {
${cases.join('\n')}
    case null: // an answer the document does not describe
      console.error(e.status, e.body, e.requestId);
      break;
  }
}
`;
}

/** Every operation of the bundle, with the samples made for it. */
export function operationSamples(doc: Node): { path: string; method: string; operation: Node; call: SampleCall; samples: CodeSample[] }[] {
  const out = [];
  for (const path of Object.keys(doc.paths ?? {})) {
    const item = deref(doc, doc.paths[path]);
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const call = sampleCall(doc, path, method);
      // TypeScript first: the tab a reader sees is the one that handles every documented code.
      const samples: CodeSample[] = [
        { lang: 'TypeScript', label: 'TypeScript', source: typescriptSample(doc, call) },
        { lang: 'Shell', label: 'curl', source: curlSample(call) },
      ];
      out.push({ path, method, operation, call, samples });
    }
  }
  return out;
}

/** Adds `x-codeSamples` to every operation of a bundle, in place. */
export function addCodeSamples(doc: Node): void {
  for (const { operation, samples } of operationSamples(doc)) operation['x-codeSamples'] = samples;
}
