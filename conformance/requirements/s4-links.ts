import { at, elsewhere, informative, must, notShown } from './types.js';

/** Sections 4.11 and 4.12: the account holder's links, and the proxy's health check. */
export const LINKS = [
  must('links-single-use', at('4.11', 'paragraph 1'), 'A link works once: after its decision (or, for a prompt, its first reading) it refuses.', {
    leavesOpen: ['the status and code of the refusal (any 4xx)'],
  }),
  must('links-expire', at('4.11', 'paragraph 1'), 'A link refuses once its lifetime (section 8.5) has passed.', { leavesOpen: ['the status and code of the refusal (any 4xx)'] }),
  must('links-token-is-the-credential', at('4.11', 'paragraph 1'), 'A link\'s token is its only credential: it works without an API key, and an unknown token refuses.', {
    leavesOpen: ['the status and code of the refusal (any 4xx)'],
  }),
  informative('links-not-for-agents', at('4.11', 'paragraph 1'), 'Agents never see the links.'),
  must('links-deleted-account-not-found', at('4.11', 'paragraph 1'), 'A link of a deleted account reads as not found (404).', {
    leavesOpen: ['the code and body of the answer'],
  }),
  must('link-purchase-approval', at('4.11', 'row /v1/approvals/{token}'), 'A held purchase\'s link is read with GET and decided with POST …/decide and `decision` approve or deny, with optional `at` declared or page (page by default).', {
    leavesOpen: ['the status of a successful answer (any 2xx)', 'the body of every answer'],
  }),
  must('link-signup-request', at('4.11', 'row /v1/signup-requests/{token}'), 'A signup request\'s link is read with GET and decided with POST and `decision` approve or deny; the decision moves the request as section 3 says.', {
    leavesOpen: ['the status of a successful answer (any 2xx)', 'the body of every answer'],
  }),
  must('link-cvv-request', at('4.11', 'row /v1/cvv-requests/{token}'), 'A security-code prompt\'s link is read with GET.', { leavesOpen: ['the status of a successful answer (any 2xx)', 'the body'] }),
  must('link-challenge-request', at('4.11', 'row /v1/challenge-requests/{token}'), 'A challenge handoff\'s link is read with GET.', { leavesOpen: ['the status of a successful answer (any 2xx)', 'the body'] }),
  must('link-offers-declared', at('4.11', 'paragraph 2'), 'The GET of a held purchase shows `offersDeclared: true` when the declared total may be approved.'),
  must('link-declared-only-when-offered', at('4.11', 'paragraph 2'), '`at: declared` on a hold that does not offer it is refused with 400 declared_not_offered, and the hold stays pending.'),
  must('link-mismatch-needs-declared', at('4.11', 'paragraph 2'), 'A hold of kind amount_mismatch takes only `at: declared`; anything else is refused with 400 declared_required, and the hold stays pending.'),
  notShown('link-answers', at('4.11', 'paragraph 2'), 'The bodies of the links\' answers are not shown.'),
  must('proxy-health', at('4.12', 'paragraph 1'), 'GET /health on the proxy\'s HTTP origin answers a JSON object whose `ok` is true.', { leavesOpen: ['other members', 'the status of the answer (any 2xx)'] }),
  notShown('proxy-protocol', at('4.12', 'paragraph 1'), 'The proxy\'s frames and messages are not shown.'),
  elsewhere('proxy-close-ends-session', at('4.12', 'paragraph 1'), 'Closing the WebSocket ends a session; a browser.close frame alone does not.'),
] as const;
