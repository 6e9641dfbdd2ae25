import type { RequestHandler } from 'express';

/**
 * express-openapi-validator hands its work over as one array of middleware; the pipeline runs each
 * stage where it belongs (the route's metadata and the response hook before authentication,
 * request validation after the body is read). The library names these functions, and nothing else
 * tells them apart, so they are picked by name; a name that is gone stops the server as it is
 * built, with this message, rather than leaving a stage out.
 */
export const STAGE_NAMES = {
  init: 'pathParamsMiddleware',
  metadata: 'metadataMiddleware',
  requests: 'requestMiddleware',
  responses: 'responseMiddleware',
} as const;

const ROLES: Record<keyof typeof STAGE_NAMES, string> = {
  init: 'the stage that waits for the document',
  metadata: "the route's metadata stage",
  requests: 'the request validator middleware',
  responses: 'the response validator middleware',
};

export type Stages = Record<keyof typeof STAGE_NAMES, RequestHandler[]>;

/** The library's middleware, by stage; `expected` lists the stages its options ask for. */
export function splitStages(middleware: RequestHandler[], expected: (keyof typeof STAGE_NAMES)[]): Stages {
  const stages = {} as Stages;
  for (const [stage, name] of Object.entries(STAGE_NAMES) as [keyof typeof STAGE_NAMES, string][]) {
    stages[stage] = middleware.filter((mw) => mw.name === name);
    if (expected.includes(stage) && stages[stage].length !== 1) {
      const names = middleware.map((mw) => mw.name || '(anonymous)').join(', ');
      throw new Error(`express-openapi-validator no longer names ${ROLES[stage]} "${name}" (its middleware: ${names}); see docs/server.md, "The framework seam"`);
    }
  }
  return stages;
}
