import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Contract } from '../contract.js';
import { splitStages, type Stages } from './framework/stages.js';

export interface ValidatorSettings {
  validateResponses: boolean;
  /** Whether a query parameter the document does not list is let through (the API's) or refused (the back office's). */
  allowUnknownQueryParameters: boolean;
}

export type ValidatorStages = Stages;

/**
 * express-openapi-validator as the server runs it, for the API's document or the back
 * office's, taken apart into its stages so that each runs where the pipeline needs it: init, the
 * route's metadata, the response hook, and request validation after the body has been read
 * (framework/stages.ts).
 */
export function validatorStages(contract: Contract, settings: ValidatorSettings): ValidatorStages {
  const validator = OpenApiValidator.middleware({
    apiSpec: structuredClone(contract.doc) as never,
    validateRequests: { allErrors: true, allowUnknownQueryParameters: settings.allowUnknownQueryParameters },
    validateResponses: settings.validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
  }) as unknown as RequestHandler[];
  return splitStages(validator, settings.validateResponses ? ['init', 'metadata', 'requests', 'responses'] : ['init', 'metadata', 'requests']);
}
