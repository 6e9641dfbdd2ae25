import { at, elsewhere, informative, must, notShown } from './types.js';

/** Section 6: webhook events. */
export const EVENTS = [
  must('webhooks-per-card-on-paid-plans', at('6', 'item 1'), 'Webhook notifications are delivered per agent card, on Plus and Enterprise only: a Free account gets none.', {
    readings: ['a Free account cannot set an endpoint', 'a Free account may set one, but no delivery is made to it'],
  }),
  must('webhook-endpoint-public-https', at('6', 'item 2'), 'A webhook endpoint is a public HTTPS URL.', {
    leavesOpen: ['whether a deployment refuses another URL when it is set, or only never delivers to it', 'what a sandbox deployment allows for local testing'],
    untestable: 'The runner can offer only endpoints it can reach; whether a deployment holds its endpoints to public HTTPS shows only in what it refuses, which a sandbox may relax for testing.',
  }),
  must('webhook-delivery-fails', at('6', 'item 2'), 'A delivery fails when the endpoint answers no 2xx within 10 seconds without data or 15 seconds in all, or answers with a redirect.'),
  must('webhook-signed', at('6', 'item 3'), 'Each delivery is signed with the secret of the agent card its `agent_card_id` names, over `t`, a period and the raw body.', {
    leavesOpen: ['the header that carries the signature and `t` (item 6)', 'the format of `t` (item 6)', 'the MAC and its encoding'],
  }),
  informative('webhook-verify-raw-bytes', at('6', 'item 3'), 'A receiver verifies over the raw bytes, never a body serialised again.'),
  must('webhook-test-and-log', at('6', 'item 4'), 'The account holder can send a test delivery and read recent deliveries with each attempt\'s status code.', {
    leavesOpen: ['how many deliveries the list shows'],
  }),
  notShown('webhook-event-kinds', at('6', 'item 5'), 'Event kinds and payload fields are not shown.'),
  notShown('webhook-signature-format', at('6', 'item 6'), 'The signature header\'s name and the timestamp format are not shown.'),
  elsewhere('untunneled-egress-event', at('6', 'item 7'), 'The proxy emits untunneled_egress when traffic left without the tunnel.'),
  must('api-sends-no-other-events', at('6', 'item 8'), 'The agent-facing HTTP API sends no other events.', {
    untestable: 'That nothing else is ever sent cannot be observed from outside in a bounded run.',
  }),
] as const;
