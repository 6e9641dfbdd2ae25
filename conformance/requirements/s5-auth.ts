import { at, client, elsewhere, must } from './types.js';

/** Section 5: authentication, keys, scopes and accounts. */
export const AUTH = [
  client('auth-send-bearer', at('5', 'item 1'), 'A client sends `Authorization: Bearer <key>` on every endpoint but the recipe reads.'),
  must('auth-accepts-bearer', at('5', 'item 1'), 'An endpoint that needs a key accepts it as `Authorization: Bearer <key>`.'),
  elsewhere('auth-key-opens-proxy-sessions', at('5', 'item 2'), 'The same key opens proxy sessions.'),
  must('auth-missing-or-not-bearer', at('5', 'item 3'), 'A missing Authorization header, or one not in Bearer form, is refused with 401 unauthorized.'),
  must('auth-unknown-or-revoked', at('5', 'item 3'), 'An unknown or revoked key is refused with 401 invalid_api_key.'),
  must('auth-causes-alike', at('5', 'item 3'), 'Nothing in the answers tells an unknown key from a revoked one.', {
    leavesOpen: ['what differs between any two answers to the same request (a date, a request id)'],
  }),
  must('auth-no-store', at('5', 'item 4'), 'Every authenticated answer carries Cache-Control with the no-store directive.', {
    readings: ['every answer of an endpoint that needs a key, refusals of the key included', 'every answer to a request whose key was accepted'],
    leavesOpen: ['further directives'],
  }),
  must('signup-permission', at('5', 'item 5'), 'The signup permission is given per key, is off on a new key, and is needed for the three signup POST endpoints (403 signup_not_enabled otherwise).'),
  must('key-scope', at('5', 'item 6'), 'A key limited to a list of logins sees only the logins on its list.'),
  must('scoped-key-adds-fifty', at('5', 'item 6'), 'A scoped key adds at most 50 entries to its own list; past that an approval cannot complete.', { limits: ['scoped-key-login-list'] }),
  must('tokens-of-one-account', at('5', 'item 7'), 'Tokens belong to one account: two accounts\' catalogs share no token.'),
  elsewhere('cross-user-denied', at('5', 'item 7'), 'Resolving another account\'s token is refused with cross_user_denied; three within five minutes revoke the key (key_auto_revoked).'),
  elsewhere('login-token-on-its-sites', at('5', 'item 8'), 'A login token resolves only on the login\'s website or extra sites (login_blocked otherwise).'),
  elsewhere('hosted-server-sign-in', at('5', 'item 9'), 'The hosted tool server signs in OAuth-style; a refused access token gives 401 with error="invalid_token".'),
] as const;
