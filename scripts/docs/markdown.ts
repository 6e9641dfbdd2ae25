// The API's reference as one Markdown file (dist/docs/reference.md), from the same view the HTML
// page renders: the introduction (quickstart first), the error-code reference, then every operation
// with its parameters, body fields, responses, error table and samples (TypeScript first). It needs
// no JavaScript and no navigation: `grep`, `curl` and a coding agent read all of it.
import { CLIENT_CODES_HEADING, ERROR_CODES_HEADING, everyOperation, responseCodes } from './error-codes.js';
import { referenceView, withServersFilled } from './view.js';

type Node = Record<string, any>;

const anchorOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9 -]/g, '').trim().replace(/ /g, '-');
const cell = (text: unknown) => String(text ?? '').trim().replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
const table = (head: string[], rows: string[][]) => [`| ${head.join(' | ')} |`, `| ${head.map(() => '-').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');

function deref(doc: Node, node: Node | undefined): Node {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 16; hops++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((s: string) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at: any, key: string) => at?.[key], doc);
  }
  return current ?? {};
}

const refName = (node: Node | undefined) => (typeof node?.$ref === 'string' && node.$ref.startsWith('#/components/schemas/') ? node.$ref.split('/').pop()! : undefined);

/** A schema with its allOf parts merged: properties, required members and the first description. */
function merged(doc: Node, node: Node | undefined): Node {
  const s = deref(doc, node);
  if (!s.allOf) return s;
  const out: Node = { ...s, properties: { ...(s.properties ?? {}) }, required: [...(s.required ?? [])] };
  delete out.allOf;
  for (const part of s.allOf) {
    const m = merged(doc, part);
    for (const [name, value] of Object.entries<Node>(m.properties ?? {})) out.properties[name] ??= value;
    out.required.push(...(m.required ?? []));
    for (const key of ['type', 'description', 'oneOf', 'anyOf', 'additionalProperties']) if (out[key] === undefined && m[key] !== undefined) out[key] = m[key];
  }
  return out;
}

function typeOf(doc: Node, node: Node | undefined): string {
  const s = merged(doc, node);
  const name = refName(node);
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v: unknown) => `\`${JSON.stringify(v)}\``).join(', ')}`;
  const variants = s.oneOf ?? s.anyOf;
  if (variants) return `one of ${variants.map((v: Node) => refName(v) ?? typeOf(doc, v)).join(', ')}`;
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : [];
  const label = types.map((t: string) => (t === 'array' ? `array of ${typeOf(doc, s.items)}` : t)).join(' or ') || 'any JSON value';
  return name && types.includes('object') ? `${label} (${name})` : label;
}

function constraints(s: Node): string[] {
  const out: string[] = [];
  if (s.minLength !== undefined || s.maxLength !== undefined) out.push(`length ${s.minLength ?? 0} to ${s.maxLength ?? 'any'}`);
  if (s.minimum !== undefined || s.maximum !== undefined) out.push(`${s.minimum ?? 'any'} to ${s.maximum ?? 'any'}`);
  if (s.minItems !== undefined || s.maxItems !== undefined) out.push(`${s.minItems ?? 0} to ${s.maxItems ?? 'any'} items`);
  if (s.format) out.push(`format ${s.format}`);
  if (s.pattern) out.push(`pattern \`${s.pattern}\``);
  return out;
}

/** One row per member, nested members as `a.b` and array items as `a[].b`, a few levels deep. */
function fieldRows(doc: Node, node: Node | undefined, prefix = '', depth = 0): string[][] {
  const s = merged(doc, node);
  if (depth > 4) return [];
  const required = new Set<string>(s.required ?? []);
  const rows: string[][] = [];
  for (const [name, raw] of Object.entries<Node>(s.properties ?? {})) {
    const member = merged(doc, raw);
    const notes = constraints(member);
    const description = [raw.description ?? member.description ?? '', notes.length ? `(${notes.join('; ')})` : ''].filter(Boolean).join(' ');
    rows.push([`\`${prefix}${name}\``, typeOf(doc, raw), required.has(name) ? 'yes' : 'no', description]);
    const items = member.type === 'array' ? merged(doc, member.items) : undefined;
    // A member that is one object or null (a lookup's slot) lists that object's members too.
    const objects: Node[] = (member.anyOf ?? member.oneOf ?? []).filter((v: Node) => merged(doc, v).properties);
    if (member.properties) rows.push(...fieldRows(doc, raw, `${prefix}${name}.`, depth + 1));
    else if (items?.properties) rows.push(...fieldRows(doc, member.items, `${prefix}${name}[].`, depth + 1));
    else if (objects.length === 1) rows.push(...fieldRows(doc, objects[0], `${prefix}${name}.`, depth + 1));
  }
  return rows;
}

/** A body's fields: its own table, or one per variant of a oneOf/anyOf. */
function bodyFields(doc: Node, schema: Node | undefined): string {
  const s = merged(doc, schema);
  const variants: Node[] | undefined = s.oneOf ?? s.anyOf;
  const head = ['Field', 'Type', 'Required', 'Description'];
  if (variants && !s.properties) {
    return variants
      .map((v) => {
        const m = merged(doc, v);
        const rows = fieldRows(doc, v);
        return `One of: **${refName(v) ?? m.title ?? 'variant'}**${m.description ? `: ${cell(m.description)}` : ''}\n\n${rows.length ? table(head, rows) : `Type: ${typeOf(doc, v)}`}`;
      })
      .join('\n\n');
  }
  const rows = fieldRows(doc, schema);
  return rows.length ? table(head, rows) : `Type: ${typeOf(doc, schema)}`;
}

function parameters(doc: Node, item: Node, op: Node): string {
  const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Node) => deref(doc, p));
  if (params.length === 0) return '';
  const rows = params.map((p) => [`\`${p.name}\``, p.in, typeOf(doc, p.schema), p.required ? 'yes' : 'no', `${p.description ?? ''}${p.example !== undefined ? ` Example: \`${p.example}\`.` : ''}`]);
  return `##### Parameters\n\n${table(['Name', 'In', 'Type', 'Required', 'Description'], rows)}\n`;
}

function requestBody(doc: Node, op: Node): string {
  const body = deref(doc, op.requestBody);
  if (!body.content) return '';
  const out = [`##### Request body${body.required ? ' (required)' : ''}`, ''];
  for (const [type, media] of Object.entries<Node>(body.content)) {
    out.push(`\`${type}\`${body.description ? `: ${cell(body.description)}` : ''}`, '', bodyFields(doc, media.schema), '');
  }
  return out.join('\n');
}

function responses(doc: Node, op: Node, errorCodesHref: string): string {
  const out = ['##### Responses', ''];
  for (const [status, raw] of Object.entries<Node>(op.responses ?? {})) {
    const response = deref(doc, raw);
    out.push(`###### ${status}`, '', String(response.description ?? '').trim(), '');
    const headers = Object.entries<Node>(response.headers ?? {}).map(([name, h]) => {
      const header = deref(doc, h);
      return [`\`${name}\``, typeOf(doc, header.schema), header.required ? 'always' : 'sometimes', header.description ?? ''];
    });
    if (headers.length) out.push(table(['Header', 'Type', 'Sent', 'Description'], headers), '');
    if (!status.startsWith('2') && response.content?.['application/json']) {
      const meanings: Node | undefined = doc.components?.schemas?.ApiErrorCode?.['x-enumDescriptions'];
      if (meanings) {
        const rows = responseCodes(doc, op, status).map((code) => [`\`${code}\``, meanings[code] ?? '', `[retry and what to do](${errorCodesHref})`]);
        out.push(table(['Code', 'Meaning', 'Handling'], rows), '');
        continue;
      }
    }
    for (const [type, media] of Object.entries<Node>(response.content ?? {})) {
      out.push(`\`${type}\``, '', bodyFields(doc, media.schema), '');
    }
  }
  return out.join('\n');
}

function samples(op: Node): string {
  const fence: Record<string, string> = { TypeScript: 'ts', Shell: 'sh' };
  const list = (op['x-codeSamples'] ?? []) as Array<{ lang: string; label: string; source: string }>;
  return list.map((s) => `##### Sample: ${s.label}\n\n\`\`\`${fence[s.lang] ?? ''}\n${s.source.trimEnd()}\n\`\`\`\n`).join('\n');
}

const opAnchor = (id: string) => `op-${id.toLowerCase()}`;

/** What a webhook's delivery is signed and sent with (`x-signature-format`, `x-webhook-delivery`), as two tables. */
function webhookFormat(doc: Node, op: Node): string {
  const out: string[] = [];
  for (const raw of op.parameters ?? []) {
    const format: Node | undefined = deref(doc, raw)['x-signature-format'];
    if (!format) continue;
    out.push(`##### Signature (\`${deref(doc, raw).name}\`)`, '', table(['Member', 'Value'], Object.entries(format).map(([k, v]) => [`\`${k}\``, `\`${String(v)}\``])), '');
  }
  const delivery: Node | undefined = op['x-webhook-delivery'];
  if (delivery) {
    const rows = Object.entries(delivery).filter(([k]) => k !== 'sections').map(([k, v]) => [`\`${k}\``, `\`${JSON.stringify(v)}\``]);
    out.push('##### Delivery', '', table(['Member', 'Value'], rows), '');
  }
  return out.join('\n');
}

/** One section per operation, grouped by tag, and each webhook under its tag. */
function operationSections(doc: Node, ops: ReturnType<typeof everyOperation>, errorCodesHref: string): string[] {
  const out: string[] = [];
  const hooks = Object.entries<Node>(doc.webhooks ?? {}).flatMap(([name, item]) => Object.entries<Node>(item).map(([method, op]) => ({ name, method, op })));
  for (const tag of doc.tags ?? []) {
    out.push(`### ${tag.name}`, '', String(tag.description ?? '').trim(), '');
    for (const { path, method, op } of ops.filter((o) => (o.op.tags ?? [])[0] === tag.name)) {
      const item = doc.paths[path];
      const security: Node[] = op.security ?? doc.security ?? [];
      const auth = security.some((r) => Object.keys(r).length > 0) ? 'API key (`Authorization: Bearer <API_KEY>`)' : 'none';
      const server = op.servers?.[0]?.url ?? item.servers?.[0]?.url;
      out.push(
        `<a id="${opAnchor(op.operationId)}"></a>`,
        '',
        `#### \`${method.toUpperCase()} ${path}\`: ${op.summary}`,
        '',
        `operationId \`${op.operationId}\` · authentication: ${auth}${op.deprecated ? ` · **deprecated**, sunset ${op['x-sunset']}` : ''}${server ? ` · server \`${server}\`` : ''}`,
        '',
        String(op.description ?? '').trim(),
        '',
        parameters(doc, item, op),
        requestBody(doc, op),
        responses(doc, op, errorCodesHref),
        samples(op),
      );
    }
    for (const { name, method, op } of hooks.filter((h) => (h.op.tags ?? [])[0] === tag.name)) {
      out.push(
        `<a id="${opAnchor(op.operationId)}"></a>`,
        '',
        `#### Webhook \`${name}\`: ${op.summary}`,
        '',
        `The service sends \`${method.toUpperCase()}\` to the endpoint · operationId \`${op.operationId}\``,
        '',
        String(op.description ?? '').trim(),
        '',
        parameters(doc, doc.webhooks[name], op),
        webhookFormat(doc, op),
        requestBody(doc, op),
        responses(doc, op, errorCodesHref),
      );
    }
  }
  return out;
}

/** A Markdown page's title, summary, what it is generated from, and the servers. */
function pageHead(doc: Node, source: string, beside: string): string[] {
  return [
    `# ${doc.info.title} ${doc.info.version}`,
    '',
    doc.info.summary ?? '',
    '',
    `Generated from ${source} by \`npm run docs\`, like ${beside}.`,
    `Servers: ${(doc.servers ?? []).map((s: Node) => `\`${s.url}\``).join(', ')}.`,
    '',
  ];
}

/** The back office's reference as Markdown (dist/docs/fixtures.md), like its HTML page. */
export function fixturesMarkdown(bundle: Node): string {
  const doc = withServersFilled(bundle);
  const ops = everyOperation(doc);
  const out = [
    ...pageHead(doc, "the back office's OpenAPI document", 'the HTML page beside it (`fixtures.html`)'),
    String(doc.info.description ?? '').trim(),
    '',
    '## Operations',
    '',
    table(
      ['Operation', 'Request', 'Summary'],
      ops.map(({ path, method, op }) => [`[${op.operationId}](#${opAnchor(op.operationId)})`, `\`${method.toUpperCase()} ${path}\``, op.summary ?? '']),
    ),
    '',
    ...operationSections(doc, ops, '#errors'),
  ];
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/** The whole reference as Markdown. */
export function referenceMarkdown(bundle: Node): string {
  const errorCodesHref = `#${anchorOf(ERROR_CODES_HEADING)}`;
  const doc = referenceView(bundle, { operation: (id) => `[${id}](#${opAnchor(id)})`, errorCodes: errorCodesHref });
  const ops = everyOperation(doc);
  const intro = String(doc.info.description ?? '').trim();
  const sections = [...intro.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
  const out = [
    ...pageHead(doc, 'the OpenAPI document', 'the HTML reference beside it (`index.html`)'),
    '## Contents',
    '',
    ...sections.map((name) => `- [${name}](#${anchorOf(name)})`),
    `- [Operations](#operations)`,
    ...(doc.tags ?? []).map((t: Node) => `  - [${t.name}](#${anchorOf(t.name)})`),
    '',
    intro,
    '',
    '## Operations',
    '',
    table(
      ['Operation', 'Request', 'Summary'],
      ops.map(({ path, method, op }) => [`[${op.operationId}](#${opAnchor(op.operationId)})`, `\`${method.toUpperCase()} ${path}\``, op.summary ?? '']),
    ),
    '',
  ];
  out.push(...operationSections(doc, ops, errorCodesHref));
  out.push(`(Error codes: [${ERROR_CODES_HEADING}](${errorCodesHref}); client and proxy codes: [${CLIENT_CODES_HEADING}](#${anchorOf(CLIENT_CODES_HEADING)}).)`, '');
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
