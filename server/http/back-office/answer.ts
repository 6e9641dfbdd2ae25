import type { Handler, Services } from '../handlers.js';
import { context } from '../context.js';

/** What a back-office operation is given: its path parameters (decoded), its validated body, the services. */
export type Call = (params: Readonly<Record<string, string>>, body: unknown, services: Services) => unknown;

/** A handler that runs `call` and answers `status` with what it returns as JSON, or with no body for 204. */
export function answer(status: number, call: Call): Handler {
  return async (req, res, services) => {
    const result = await call(context(req).params, req.body, services);
    if (status === 204) res.status(204).end();
    else res.status(status).json(result);
  };
}
