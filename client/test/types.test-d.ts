// Type-level tests of the generated types (client/generated/schema.d.ts). They are not run:
// `npm run typecheck` (tsc --noEmit) compiles them, so a document change that widens or narrows
// a type the wrong way fails the build. Each `@ts-expect-error` is a call that must not compile;
// if it ever compiles, tsc reports the unused directive.
import createClient from 'openapi-fetch';
import type { components, operations, paths } from '../generated/schema.js';

type Schemas = components['schemas'];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}
type JsonBody<Op extends keyof operations, Status extends keyof operations[Op]['responses']> =
  operations[Op]['responses'][Status] extends { content: { 'application/json': infer Body } } ? Body : never;

// The per-URL recipe lookup has exactly four slots, each a summary or null.
type RecipeLookup = Schemas['RecipeLookup'];
assertType<Equal<keyof RecipeLookup, 'merchant' | 'platform' | 'signup' | 'signupPlatform'>>();
assertType<Equal<RecipeLookup['signupPlatform'], Schemas['RecipeSummary'] | null>>();
export const emptyLookup: RecipeLookup = { merchant: null, platform: null, signup: null, signupPlatform: null };
// @ts-expect-error a fifth slot is not part of the lookup
export const fifthSlot: RecipeLookup = { merchant: null, platform: null, signup: null, signupPlatform: null, checkout: null };
// @ts-expect-error every slot is present, null when nothing serves the page
export const missingSlot: RecipeLookup = { merchant: null, platform: null, signup: null };

// Error codes are narrowed per operation and status to the specification's list.
type UsernameConflict = JsonBody<'setLoginUsername', 409>;
assertType<Equal<UsernameConflict['code'], 'username_already_set' | 'idempotency_key_in_use'>>();
export const conflict: UsernameConflict = { code: 'username_already_set', error: 'This login already has a different username.' };
// @ts-expect-error not_found is a 404 of setLoginUsername, never its 409
export const wrongConflict: UsernameConflict = { code: 'not_found', error: 'No login with this label.' };
assertType<Equal<JsonBody<'setLoginUsername', 400>['code'], 'bad_request' | 'invalid_username'>>();
assertType<Equal<JsonBody<'setLoginUsername', 401>['code'], 'unauthorized' | 'invalid_api_key'>>();
assertType<Equal<JsonBody<'setLoginUsername', 429>['code'], 'rate_limited' | 'daily_limit'>>();
assertType<Equal<JsonBody<'getRecipeSubmission', 404>['code'], 'not_found'>>();
assertType<Equal<JsonBody<'rotateLoginPassword', 409>['code'], 'not_rotatable' | 'idempotency_key_in_use'>>();
assertType<Equal<JsonBody<'fileSignupRequest', 403>['code'], 'signup_not_enabled' | 'login_limit'>>();
assertType<Equal<JsonBody<'fileSignupRequest', 429>['code'], 'rate_limited' | 'too_many_pending'>>();
assertType<Equal<JsonBody<'getSignupRequest', 403>['code'], 'scope_denied'>>();

// A polled signup request is a union on `status`; only an approved one carries the login.
type SignupStatus = JsonBody<'getSignupRequest', 200>;
assertType<Equal<SignupStatus['status'], 'pending' | 'approved' | 'denied' | 'expired'>>();
export function loginOf(answer: SignupStatus): Schemas['LoginEntry'] | undefined {
  if (answer.status === 'approved') return answer.login;
  // @ts-expect-error a pending, denied or expired request has no login
  return answer.login;
}

// Wire names are the specification's, never renamed.
assertType<Equal<Schemas['CardEntry']['anySite'], boolean>>();
assertType<Equal<Schemas['RecipeKind'], 'merchant' | 'platform' | 'signup' | 'signup-platform'>>();

// The same guarantees reach a typed client built on the generated paths.
export async function typedClientCalls(fetchImpl: typeof fetch): Promise<void> {
  const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080', fetch: fetchImpl });

  const set = await client.POST('/v1/logins/username', { body: { label: 'acme', username: 'shopper.jane' } });
  if (set.error) {
    // @ts-expect-error invalid_recipe is not a code setLoginUsername can answer
    if (set.error.code === 'invalid_recipe') return;
  }

  // @ts-expect-error username is a required member
  await client.POST('/v1/logins/username', { body: { label: 'acme' } });

  // @ts-expect-error the lookup path has no PUT
  await client.PUT('/v1/recipes', {});

  const lookup = await client.GET('/v1/recipes', { params: { query: { url: 'https://acme.com/checkout' } } });
  if (lookup.data && 'merchant' in lookup.data) {
    const slots: RecipeLookup = lookup.data;
    void slots;
  }
}
