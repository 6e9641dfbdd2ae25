/**
 * The sections of the specification (credential-vault-http-api.md), by number, with their titles.
 * The catalogue lint refuses a case that cites a section not listed here; CASES.md groups by them.
 */
export const SECTIONS: Record<string, string> = {
  '1': 'What the service does',
  '2': 'Resources and their fields',
  '2.1': 'Token catalog',
  '2.2': 'Recipe index entry',
  '2.3': 'Per-URL recipe lookup result',
  '2.4': 'Recipe submission',
  '2.5': 'Signup request',
  '2.6': 'Password rule fields',
  '2.7': 'Other resources named',
  '3': 'States and transitions',
  '4': 'Endpoints',
  '4.1': 'GET /v1/tokens',
  '4.2': 'GET /v1/recipes',
  '4.3': 'POST /v1/recipes',
  '4.4': 'GET /v1/recipes/submissions/{id}',
  '4.5': 'Signup and login endpoints, common rules',
  '4.6': 'POST /v1/logins/requests',
  '4.7': 'GET /v1/logins/requests/{id}',
  '4.8': 'POST /v1/logins/username',
  '4.9': 'POST /v1/logins/password',
  '4.10': 'POST /v1/logins (retired)',
  '4.11': 'Account-holder links',
  '4.12': 'Proxy',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '7.1': 'HTTP API codes',
  '7.2': 'Client and proxy error codes',
  '8': 'Limits',
  '8.1': 'Plans',
  '8.2': 'Spending limits',
  '8.3': 'Rate limits on the HTTP API',
  '8.4': 'Ceilings',
  '8.5': 'Sessions and deadlines',
  '8.6': 'Hosted tool server',
  '8.7': 'Payload and field bounds',
  '8.8': 'Tool limits',
  '8.9': 'Client settings',
  '9': 'Versioning',
};

/** The top-level section a section belongs to (`4.6` → `4`). */
export function chapterOf(section: string): string {
  return section.split('.')[0]!;
}

/** True when `section` is `wanted` or one of its subsections (`--section 4` takes 4.6). */
export function withinSection(section: string, wanted: string): boolean {
  return section === wanted || section.startsWith(`${wanted}.`);
}
