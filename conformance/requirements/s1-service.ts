import { at, elsewhere, informative, must, notShown } from './types.js';

/** The introduction and section 1: what the service is, and the endpoint overview. */
export const SERVICE = [
  informative('intro-base-address', at('intro', 'paragraph 2'), 'The HTTP API lives under a base address of the deployment\'s choosing; the proxy has an address of its own.', {
    leavesOpen: ['the base address, a path under it included', 'http or https'],
  }),
  elsewhere('intro-proxy-address', at('intro', 'paragraph 2'), 'The proxy is reached over WebSocket (ws or wss) at a path that ends in /v1.'),
  notShown('intro-browser-protocol', at('intro', 'paragraph 1'), 'The WebSocket protocol that drives the remote browser is outside this specification.'),
  informative('service-keeps-account-data', at('1', 'item 1'), 'The service keeps one account holder\'s cards, identity data, addresses and site logins.'),
  must('service-never-shows-real-values', at('1', 'item 1'), 'No answer an agent receives carries a real value the account holder stored (a card number, a password, a TOTP secret, an identity or address value), in any encoding.', {
    leavesOpen: ['what an agent sees in place of a value, as long as it is not the value'],
  }),
  elsewhere('service-substitutes-in-proxy', at('1', 'item 1'), 'The proxied remote browser replaces tokens with the real values when it fills a form.'),
  informative('service-api-surface', at('1', 'item 2'), 'The HTTP API offers a token catalog, a recipe registry to read and contribute to, and a signup workflow.'),
  must('keys-belong-to-an-account', at('1', 'item 3'), 'An API key belongs to one account and reads that account\'s data only.', {
    leavesOpen: ['how keys are issued from the dashboard'],
  }),
  informative('accounts-have-plans', at('1', 'item 3'), 'Every account is on one plan: Free, Plus or Enterprise.'),
  must('tokens-never-expire', at('1', 'item 4'), 'A token handed out stays the same token for the same stored value: reading the catalog again gives the same tokens.', {
    leavesOpen: ['what happens to a token once its record is deleted (section 7.2: token_not_found)'],
  }),
  elsewhere('proxy-sessions-expire', at('1', 'item 4'), 'Proxy sessions end (section 8.5).'),
  must('recipe-reads-public', at('1', 'item 5'), 'Reading recipes needs no API key.'),
  must('other-endpoints-need-a-key', at('1', 'item 5'), 'The agent endpoints other than the recipe reads refuse a request without an API key.', {
    readings: [
      'every path of the service but the recipe reads needs a key',
      'every agent endpoint but the recipe reads needs a key; the account-holder links (section 4.11, whose token is the only credential) and the retired path (section 4.10, which answers 410 whatever is sent) are not agent endpoints',
    ],
  }),
  notShown('infrastructure-paths', at('1', 'item 6'), 'Two further paths serve infrastructure and billing; they take no API key and are no part of the agent interface.'),
  informative('overview-tokens', at('1', 'row GET /v1/tokens'), 'Restates section 4.1.'),
  informative('overview-recipes-read', at('1', 'row GET /v1/recipes'), 'Restates section 4.2.'),
  informative('overview-recipes-submit', at('1', 'row POST /v1/recipes'), 'Restates section 4.3.'),
  informative('overview-submission', at('1', 'row GET /v1/recipes/submissions/{id}'), 'Restates section 4.4.'),
  informative('overview-signup-file', at('1', 'row POST /v1/logins/requests'), 'Restates section 4.6.'),
  informative('overview-signup-poll', at('1', 'row GET /v1/logins/requests/{id}'), 'Restates section 4.7.'),
  informative('overview-username', at('1', 'row POST /v1/logins/username'), 'Restates section 4.8.'),
  informative('overview-password', at('1', 'row POST /v1/logins/password'), 'Restates section 4.9.'),
  informative('overview-retired', at('1', 'row POST /v1/logins'), 'Restates section 4.10.'),
] as const;
