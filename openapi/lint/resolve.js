// Walking the split document from inside a Redocly visitor: a `$ref` is relative to the file it
// is written in, so `follow` resolves against that file, never the visited one.

export const MAX_REF_HOPS = 16;

export const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
export const isRef = (value) => isObject(value) && typeof value.$ref === 'string';

/** The node at `raw` (written at `location`), with every `$ref` resolved, and where it lives. */
export function follow(ctx, raw, location) {
  let node = raw;
  let at = location;
  for (let hop = 0; isRef(node); hop++) {
    if (hop === MAX_REF_HOPS) return { node: undefined, location: at };
    const resolved = ctx.resolve(node, at.source.absoluteRef);
    if (!resolved.location) return { node: undefined, location: at };
    node = resolved.node;
    at = resolved.location;
  }
  return { node, location: at };
}

/** The member `key` of an already followed node, itself followed. */
export function member(ctx, entry, key) {
  const container = entry.node;
  if (typeof container !== 'object' || container === null || !(key in container)) return { node: undefined, location: entry.location };
  return follow(ctx, entry.node[key], entry.location.child([key]));
}


/** Reports each (location, message) once: a shared response is reached from many operations. */
export function reporter(ctx, seen) {
  return (message, location) => {
    const key = `${location.source.absoluteRef}${location.pointer}\n${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    ctx.report({ message, location });
  };
}
