import { escapeHtml, page } from './html.js';

/**
 * The page of a refused link request: the same sentence as the JSON `error`, and where to go back.
 * A link that no longer works has nowhere to go back to.
 */
export function errorPage(status: number, message: string, back: string | undefined): string {
  const title = status === 404 ? 'This link no longer works' : 'The decision was not taken';
  const hint =
    status === 404
      ? '<p class="muted">A link works until it is decided or expires. If the agent still needs your decision, it will ask again.</p>'
      : back !== undefined
        ? `<p><a href="${escapeHtml(back)}">Back to the request</a></p>`
        : '';
  return page(title, `<h1>${escapeHtml(title)}</h1>
<div class="notice" role="alert"><p>${escapeHtml(message)}</p></div>
${hint}`);
}
