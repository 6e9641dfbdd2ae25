import type { ApiDocument } from '../runner/document.js';
import type { Case } from '../runner/case.js';
import type { Catalogue } from '../runner/conformance.js';
import { INELIGIBLE } from './ineligible.js';
import { authCases } from './auth.js';
import { authSchemeCases } from './auth-scheme.js';
import { catalogCases } from './catalog.js';
import { catalogLimitCases } from './catalog-limits.js';
import { recipeReadCases } from './recipes-read.js';
import { recipeContributionCases } from './recipes-contribute.js';
import { recipeRefusalCases } from './recipes-refused.js';
import { recipeSubmissionCases } from './recipes-submissions.js';
import { recipePrecedenceCases } from './recipes-precedence.js';
import { storedMemberCases } from './stored-members.js';
import { linkCases } from './links.js';
import { retiredCases } from './retired.js';
import { proxyCases } from './proxy.js';
import { httpLayerCases } from './http-layer.js';
import { bodyCases } from './bodies.js';
import { signupFilingCases } from './signup-filing.js';
import { signupCharacterCases } from './signup-characters.js';
import { signupPollingCases } from './signup-polling.js';
import { signupPolicyCases } from './signup-policy.js';
import { signupPreapprovalCases } from './signup-preapproval.js';
import { signupCeilingCases } from './signup-ceilings.js';
import { loginUsernameCases } from './logins-username.js';
import { loginPasswordCases } from './logins-password.js';
import { loginWriteCases } from './login-writes.js';
import { signupBudgetCases } from './signup-budget.js';
import { webhookCases } from './webhooks.js';

/** The whole catalogue, in the order CASES.md lists it. Cases generated per operation read the document. */
export function catalogue(doc: ApiDocument): Case[] {
  return [...authCases(doc), ...authSchemeCases(), ...catalogCases(), ...catalogLimitCases(), ...recipeReadCases(), ...recipeContributionCases(), ...recipeRefusalCases(), ...recipeSubmissionCases(), ...recipePrecedenceCases(), ...storedMemberCases(), ...linkCases(), ...retiredCases(), ...proxyCases(), ...httpLayerCases(doc), ...bodyCases(doc), ...signupFilingCases(), ...signupCharacterCases(), ...signupPollingCases(), ...signupPolicyCases(), ...signupPreapprovalCases(), ...signupCeilingCases(), ...loginUsernameCases(), ...loginPasswordCases(), ...loginWriteCases(), ...signupBudgetCases(), ...webhookCases()];
}

/** The catalogue as the runner takes it. */
export const CATALOGUE: Catalogue = { cases: catalogue, ineligible: INELIGIBLE };
