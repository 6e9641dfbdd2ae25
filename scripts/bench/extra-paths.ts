// A copy of the bundled document with `count` more documented paths, to show what the size of the
// document costs a request. Half are static, half take a path parameter, and all sort before
// /v1/tokens: the validator tries documented paths in order, so it passes every one of them before
// it reaches the catalog.
export function withExtraPaths(doc: Record<string, any>, count: number): Record<string, any> {
  const out = structuredClone(doc);
  const extra: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(3, '0');
    const param = i % 2 === 1;
    extra[param ? `/v1/bench-extra-${n}/{id}` : `/v1/bench-extra-${n}`] = {
      get: {
        operationId: `benchExtra${n}`,
        summary: `Bench path ${n}`,
        ...(param ? { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } }] } : {}),
        responses: {
          '200': {
            description: 'OK',
            content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } },
          },
        },
      },
    };
  }
  out.paths = { ...extra, ...out.paths };
  return out;
}
