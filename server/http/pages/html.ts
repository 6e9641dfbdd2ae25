import { createHash } from 'node:crypto';
import type { Response } from 'express';

/**
 * The shell of every account-holder page: one inline stylesheet and no script, so the pages work
 * with scripts off and the Content-Security-Policy can forbid everything else. The account holder
 * opens these links from an email or a phone, so the layout is one narrow column that reads on a
 * phone, with large buttons and visible focus.
 */

const STYLE = `
:root { color-scheme: light dark; --fg: #1a1a1a; --bg: #fff; --muted: #555; --line: #d0d0d0; --ok: #0b6b2f; --bad: #a31515; --accent: #0b57d0; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececec; --bg: #161616; --muted: #b5b5b5; --line: #444; --ok: #6fd196; --bad: #ff8a80; --accent: #8ab4f8; } }
* { box-sizing: border-box; }
body { margin: 0; font: 1.0625rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 34rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1rem; }
h2 { font-size: 1.125rem; margin: 0 0 .5rem; }
p { margin: 0 0 1rem; }
.muted { color: var(--muted); font-size: .9375rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .375rem 1rem; margin: 0 0 1.5rem; padding: 1rem; border: 1px solid var(--line); border-radius: .5rem; }
dt { color: var(--muted); }
dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.notice { border-left: .25rem solid var(--bad); padding: .75rem 1rem; margin: 0 0 1.5rem; background: color-mix(in srgb, var(--bad) 8%, transparent); }
.outcome { border-left: .25rem solid var(--ok); padding: .75rem 1rem; margin: 0 0 1.5rem; background: color-mix(in srgb, var(--ok) 8%, transparent); }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; }
form { margin: 0; }
button { font: inherit; font-weight: 600; min-height: 2.75rem; padding: .5rem 1.25rem; border-radius: .5rem; border: 2px solid var(--accent); cursor: pointer; }
button.approve { background: var(--accent); color: var(--bg); }
button.deny { background: transparent; color: var(--fg); border-color: var(--line); }
button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
a { color: var(--accent); }
.cp { font: .8125rem/1 ui-monospace, SFMono-Regular, Menlo, monospace; font-weight: 400; color: var(--bad); border: 1px solid currentColor; border-radius: .25rem; padding: 0 .2em; margin: 0 .1em; }
`;

/**
 * The policy every answer of an account-holder link carries: nothing loads from anywhere, the one
 * stylesheet is allowed by its hash, forms post only to this origin and no site may frame the page.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content and attribute values: every value shown comes from a request or the store. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

// Characters a reader cannot see, or that reorder the text around them: controls, format
// characters (bidi overrides and isolates, zero-width joiners, the byte order mark), the other
// default-ignorable ones (fillers, variation selectors), and every space and separator but U+0020.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\p{Zs}]/gu;

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Text a request supplied (an email, a username, a merchant), for HTML content: isolated in `<bdi>`
 * so that its direction cannot reorder the page around it, and with every invisible character
 * shown as its code point, so that what the account holder reads is what was sent.
 */
export function userText(text: string): string {
  return `<bdi>${escapeHtml(text).replace(INVISIBLE, (c) => (c === ' ' ? c : `<span class="cp">${codePoint(c)}</span>`))}</bdi>`;
}

/** The same for plain text (the page's `<title>`, which holds no markup): first-strong isolates around it, code points in brackets. */
export function userTextPlain(text: string): string {
  return `\u2068${text.replace(INVISIBLE, (c) => (c === ' ' ? c : `[${codePoint(c)}]`))}\u2069`;
}

/** A millisecond timestamp as people read it, in UTC (the page cannot know the reader's zone without a script). */
export function time(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

/** A whole page. `title` is plain text; `body` is markup built with escapeHtml. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * A form that posts one decision; `fields` become hidden inputs, so the page needs no script.
 * `label` is markup, built with escapeHtml and userText, so a figure in it can be isolated.
 */
export function decisionForm(action: string | undefined, fields: Record<string, string>, label: string, kind: 'approve' | 'deny'): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const target = action === undefined ? '' : ` action="${escapeHtml(action)}"`;
  return `<form method="post"${target}>${inputs}<button type="submit" class="${kind}">${label}</button></form>`;
}

export function sendPage(res: Response, status: number, html: string): void {
  res.status(status).type('text/html; charset=utf-8').send(html);
}
