import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Contract } from '../contract.js';
import type { ValidatorStages } from './warm.js';

/**
 * express-openapi-validator as the server runs it, taken apart into its stages so that each runs
 * where the pipeline needs it (app.ts): init, the route's metadata, the response hook, and request
 * validation after the body has been read.
 */
export function validatorStages(contract: Contract, options: { validateResponses: boolean }): ValidatorStages {
  const validator = OpenApiValidator.middleware({
    apiSpec: structuredClone(contract.doc) as never,
    // Unlisted query parameters are ignored (the document's info, "Query parameters").
    validateRequests: { allErrors: true, allowUnknownQueryParameters: true },
    validateResponses: options.validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
  }) as unknown as RequestHandler[];
  const stage = (name: string) => validator.filter((mw) => mw.name === name);
  return {
    init: [validator[0]!],
    metadata: stage('metadataMiddleware'),
    requests: stage('requestMiddleware'),
    responses: stage('responseMiddleware'),
  };
}
