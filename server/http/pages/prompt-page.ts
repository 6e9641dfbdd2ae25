import type { PromptView } from '../../domain/links.js';
import { escapeHtml, page, time } from './html.js';

/**
 * The page of a live security-code prompt or a challenge handoff. The specification leaves what the
 * account holder does there unspecified; the reference server opens the link (it is single use) and
 * says so, and takes nothing.
 */

const TEXT = {
  cvv: {
    title: 'Security code requested',
    lead: "The agent's checkout needs this card's security code, which the service never stores.",
  },
  challenge: {
    title: 'A challenge is handed to you',
    lead: "The agent's browser session met a challenge it cannot solve and handed it to you.",
  },
} as const;

export function promptPage(view: PromptView, kind: 'cvv' | 'challenge'): string {
  const text = TEXT[kind];
  return page(text.title, `<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.lead)}</p>
<dl><dt>Open until</dt><dd>${time(view.expiresAt)}</dd></dl>
<p class="muted">This link is now used. The reference server stands in for the live ${kind === 'cvv' ? 'prompt' : 'handoff'} and takes no input here.</p>`);
}
