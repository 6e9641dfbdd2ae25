/**
 * The framework seam: the only places where the reference server goes around Express or
 * express-openapi-validator instead of using their public API, because a catalog read costs
 * clearly less that way. Each part, what it buys and what in the library it relies on is in
 * docs/server.md, "The framework seam"; server/test/framework-seam.test.ts fails, naming the
 * change, when a library stops doing what a part relies on.
 *
 * One switch, the environment variable VAULT_FRAMEWORK_SEAM: unset or `on`, every part; `off`, none,
 * so both libraries run as shipped (server/test/seam-off.test.ts runs the server's behaviour checks
 * so); `off:<part>,<part>`, every part but those (the bench's `--seam`). Read as a server is built
 * and, for the route cache, which lives in patches/, as its validator first looks a route up;
 * never per request.
 */
export const SEAM_PARTS = ['message-classes', 'route-cache', 'warm'] as const;
export type SeamPart = (typeof SEAM_PARTS)[number];

export const SEAM_VARIABLE = 'VAULT_FRAMEWORK_SEAM';

/** The parts switched on by `value` (by default the environment's). */
export function seamParts(value: string | undefined = process.env[SEAM_VARIABLE]): ReadonlySet<SeamPart> {
  if (value === undefined || value === '' || value === 'on') return new Set(SEAM_PARTS);
  if (value === 'off') return new Set();
  if (value.startsWith('off:')) {
    const off = value.slice('off:'.length).split(',');
    const unknown = off.filter((p) => !(SEAM_PARTS as readonly string[]).includes(p));
    if (unknown.length === 0) return new Set(SEAM_PARTS.filter((p) => !off.includes(p)));
    throw new Error(`${SEAM_VARIABLE}: unknown part "${unknown[0]}" (known: ${SEAM_PARTS.join(', ')})`);
  }
  throw new Error(`${SEAM_VARIABLE} must be "on", "off" or "off:<part>,...", got "${value}"`);
}

export function seamOn(part: SeamPart): boolean {
  return seamParts().has(part);
}
