import { at, elsewhere, informative, must, notShown } from './types.js';

/** Section 9: versioning. */
export const VERSIONING = [
  must('version-segment', at('9', 'item 1'), 'The HTTP API\'s paths carry the version segment /v1.'),
  elsewhere('proxy-version-segment', at('9', 'item 1'), 'The proxy\'s WebSocket path carries /v1.'),
  informative('registry-version', at('9', 'item 2'), 'Restates section 2.2: a recipe carries registryVersion.'),
  must('owner-managed-may-be-absent', at('9', 'item 3'), 'An absent `passwordOwnerManaged` means false.'),
  must('deployment-defaults', at('9', 'item 4'), 'A deployment may set its own change window, credential-change budget, submission budget and pre-approved signups per account; the runner is told them with --limit.', {
    limits: ['login-change-window', 'credential-changes-per-account', 'recipe-submissions-per-account', 'preapproved-signups-per-account'],
  }),
  notShown('deprecation-policy', at('9', 'item 5'), 'Deprecation and version negotiation are not shown.'),
] as const;
