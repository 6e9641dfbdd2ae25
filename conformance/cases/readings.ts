import type { Reading } from '../runner/readings.js';

/**
 * Where the specification can be read two ways, the catalogue accepts both (judging by the
 * specification) and names the reference's. CASES.md lists these with both sides.
 */

const NOT_JSON = 'Section 7.1 gives `bad_request` for a body that is not JSON; a body without a required member is not the operation\'s JSON';

export const MISSING_WEBSITE: Reading = {
  id: 'missing-website',
  request: 'a signup filing without `website`',
  requirement: 'filing-website-registrable',
  sides: [
    { status: 400, code: 'bad_request', because: NOT_JSON },
    { status: 400, code: 'invalid_website', because: 'Section 7.1 gives `invalid_website` for "Not a registrable domain", and a missing website is none' },
  ],
  reference: 'bad_request',
  cases: ['fileSignupRequest/body-not-json-or-incomplete'],
};

export const MISSING_EMAIL: Reading = {
  id: 'missing-email',
  request: 'a signup filing without `email`',
  requirement: 'filing-email-shape',
  sides: [
    { status: 400, code: 'bad_request', because: NOT_JSON },
    { status: 400, code: 'invalid_email', because: 'Section 7.1 gives `invalid_email` for "Not one address of 4 to 254 characters", and a missing email is none' },
  ],
  reference: 'bad_request',
  cases: ['fileSignupRequest/body-not-json-or-incomplete'],
};

export const MISSING_USERNAME: Reading = {
  id: 'missing-username',
  request: 'a username write without `username`',
  requirement: 'username-body',
  sides: [
    { status: 400, code: 'bad_request', because: NOT_JSON },
    { status: 400, code: 'invalid_username', because: 'Section 7.1 gives `invalid_username` for "Under 4 characters", and a missing username has none' },
  ],
  reference: 'bad_request',
  cases: ['setLoginUsername/invalid-username'],
};

export const MISSING_LABEL_USERNAME: Reading = {
  id: 'missing-label-username',
  request: 'a username write without `label`',
  requirement: 'username-body',
  sides: [
    { status: 400, code: 'bad_request', because: NOT_JSON },
    { status: 404, code: 'not_found', because: 'Section 4.8 rule 2 answers "an unknown label" with 404 `not_found`, and a missing label names no login' },
  ],
  reference: 'bad_request',
  cases: ['setLoginUsername/invalid-username'],
};

export const MISSING_LABEL_PASSWORD: Reading = {
  id: 'missing-label-password',
  request: 'a password rotation without `label`',
  requirement: 'rotate-only-creator-in-window',
  sides: [
    { status: 400, code: 'bad_request', because: NOT_JSON },
    { status: 409, code: 'not_rotatable', because: 'Section 4.9 answers "every other case, including an unknown label" with 409 `not_rotatable`, and a missing label names no login' },
  ],
  reference: 'bad_request',
  cases: ['rotateLoginPassword/invalid-rules'],
};

export const READINGS: Reading[] = [MISSING_WEBSITE, MISSING_EMAIL, MISSING_USERNAME, MISSING_LABEL_USERNAME, MISSING_LABEL_PASSWORD];
