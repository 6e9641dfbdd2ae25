import { at, elsewhere, must, notShown } from './types.js';

/** Section 3: the states of a signup request, a recipe submission, an agent card and a proxy session. */
export const STATES = [
  must('signup-files-pending', at('3', 'signup request row 1'), 'A filing for a site and email that are not pre-approved (or past a pre-approval ceiling) creates a pending request that expires 24 hours after filing and counts toward the five pending.'),
  must('signup-preapproved-at-once', at('3', 'signup request row 2'), 'A filing for a pre-approved site and its exact email, within both ceilings and with every approval check passing, is approved at once: the login exists, the first poll carries its tokens, and it draws on the pre-approved allowance, not on the credential-change budget.'),
  must('signup-approved-by-holder', at('3', 'signup request row 3'), 'An approval by the account holder that passes every check makes the request approved.'),
  must('signup-approval-charges-budget', at('3', 'signup request row 3'), 'An approval by the account holder charges the account\'s credential-change budget.', { limits: ['credential-changes-per-account'] }),
  must('signup-failed-approval-stays-pending', at('3', 'signup request row 4'), 'An approval that fails a check (allowed-logins list full, no free label, 500 logins, budget spent) leaves the request pending, and the agent keeps seeing pending.', {
    leavesOpen: ['how the failure is shown to the account holder'],
  }),
  must('signup-denied', at('3', 'signup request row 5'), 'A denial by the account holder makes a pending request denied.'),
  must('signup-expires', at('3', 'signup request row 6'), 'A pending request becomes expired 24 hours after filing.', {
    readings: ['at exactly 24 hours the request is expired', 'at exactly 24 hours the request may still be pending; any moment after it, it is expired'],
    limits: ['signup-request-lifetime'],
  }),
  must('signup-poll-scope-denied', at('3', 'signup request row 7'), 'Polling an approved request whose login has since left the key\'s scope is answered with the error scope_denied.'),
  must('submission-starts-pending', at('3', 'recipe submission paragraph 1'), 'A new submission is pending; screening runs after the 202 answer, so what it leads to appears later.'),
  notShown('submission-transitions', at('3', 'recipe submission paragraph 1'), 'What moves a submission on from pending, to needs_human or merged among others, is not shown.'),
  must('claim-leaves-recipe-live', at('3', 'recipe submission paragraph 1'), 'A contribution with a verification claim is served at the status it was submitted with.', {
    leavesOpen: ['how soon after the 202 it is served: screening runs afterwards, and an agent polls'],
  }),
  must('only-maintainers-verify', at('3', 'recipe submission paragraph 1'), 'A contribution is never served as verified until a maintainer sets it so.', {
    readings: ['a contribution that claims status verified is accepted and served at another status', 'a contribution that claims status verified is refused'],
  }),
  elsewhere('agent-card-pauses-on-limit', at('3', 'agent card row 1'), 'A fill that breaches a spending limit on a card with autoPauseOnLimit is refused with limit_reached and pauses the card.'),
  elsewhere('agent-card-refuses-over-limit', at('3', 'agent card row 2'), 'A fill that breaches a spending limit without autoPauseOnLimit is refused with limit_reached; the card stays active.'),
  elsewhere('agent-card-resumes', at('3', 'agent card row 3'), 'The account holder resumes a paused card.'),
  elsewhere('proxy-session-idle-timeout', at('3', 'proxy session row 1'), 'A proxy session closes with 4008 idle_timeout after 15 idle minutes.'),
  elsewhere('proxy-session-hard-timeout', at('3', 'proxy session row 2'), 'A proxy session closes with 4009 hard_timeout 60 minutes after it started.'),
  elsewhere('proxy-session-drop', at('3', 'proxy session row 3'), 'A dropped session closes when its client does not return within 60 seconds.'),
  elsewhere('proxy-session-unanswered', at('3', 'proxy session row 4'), 'A call stalled for 120 s is answered unanswered; the session stays open.'),
  elsewhere('proxy-session-sdk-deadline', at('3', 'proxy session row 5'), 'A passed SDK deadline (request_timeout) closes the session.'),
  notShown('proxy-session-other-states', at('3', 'proxy session paragraph 1'), 'Other session states are not shown.'),
] as const;
