// Whether an answer's body has a shape the operation answers with: its JSON type and its required
// members, one level deep, as the document gives them (RESULT_SHAPES). A body of another operation,
// or of another branch than the one a helper asked for, is refused rather than returned under a type
// it does not have: a mock answers its first example unless `Prefer` names another, and a body the
// types promise as the four-slot lookup must not be the recipe index.
import type { Shape } from './generated/document.js';

/**
 * Undefined when `value` has one of `shapes` (or none is known); otherwise what is wrong with it, in
 * words, measured against the branch it comes closest to.
 */
export function shapeProblem(value: unknown, shapes: readonly Shape[]): string | undefined {
  if (shapes.length === 0) return undefined;
  let closest: { shape: Shape; problems: string[] } | undefined;
  for (const shape of shapes) {
    const problems = problemsOf(value, shape);
    if (problems.length === 0) return undefined;
    if (!closest || problems.length < closest.problems.length) closest = { shape, problems };
  }
  const { shape, problems } = closest!;
  return `${shape.name ? `not a ${shape.name}: ` : ''}${problems.join('; ')}`;
}

function problemsOf(value: unknown, shape: Shape): string[] {
  const own = valueProblem(value, shape);
  if (own) return [`the body is ${own}`];
  if (!shape.required || !isObject(value)) return [];
  const problems: string[] = [];
  const missing = Object.keys(shape.required).filter((name) => !Object.hasOwn(value, name));
  if (missing.length > 0) problems.push(`it lacks ${missing.join(', ')}`);
  for (const [name, member] of Object.entries(shape.required)) {
    if (!Object.hasOwn(value, name)) continue;
    const problem = valueProblem(value[name], member);
    if (problem) problems.push(`its ${name} is ${problem}`);
  }
  return problems;
}

/** What is wrong with one value, or undefined. */
function valueProblem(value: unknown, shape: Shape): string | undefined {
  if (shape.values && !shape.values.some((allowed) => allowed === value)) return `${shown(value)}, not ${shape.values.map(shown).join(' or ')}`;
  if (shape.types && !shape.types.some((type) => hasType(value, type))) return `${typeName(value)}, not ${shape.types.join(' or ')}`;
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${shown(value)})`;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
