import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type TestServer } from './support.js';
import { ADMIN, addLogins, fileOk, links, signupAccount, signupToken, startSignupServer } from './signup-support.js';

/**
 * The account-holder links answer a browser with a page (section 4.11 and the document's
 * `text/html` responses) and every other client exactly as before. Requests here are raw fetches,
 * so a page is read as a page; each answer is checked against the document by hand: its status is
 * documented and its media type is one that status lists.
 */

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const FORM = 'application/x-www-form-urlencoded';
const SECURITY_HEADERS = ['cache-control', 'content-security-policy', 'x-content-type-options', 'referrer-policy', 'vary'];

let t: TestServer;
beforeAll(async () => {
  t = await startSignupServer();
});
afterAll(() => t.close());

interface Page {
  status: number;
  type: string;
  headers: Headers;
  text: string;
}

/** A request to a link; the answer must be documented for its operation, status and media type. */
async function send(method: string, path: string, init: { accept?: string; form?: string; json?: unknown } = {}): Promise<Page> {
  const headers: Record<string, string> = {};
  if (init.accept !== undefined) headers.accept = init.accept;
  let body: string | undefined;
  if (init.form !== undefined) [headers['content-type'], body] = [FORM, init.form];
  if (init.json !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(init.json)];
  const res = await fetch(`${t.base}${path}`, { method, headers, body });
  const page = { status: res.status, type: res.headers.get('content-type') ?? '', headers: res.headers, text: await res.text() };
  const match = contract().match(method, new URL(path, t.base).pathname);
  if (match.kind !== 'operation') throw new Error(`${method} ${path} matches no operation`);
  const response = contract().resolve(match.operation.raw.responses[String(page.status)]);
  expect(response, `${match.operation.operationId} documents ${page.status}`).toBeDefined();
  const media = page.type.split(';')[0]!;
  expect(Object.keys(response.content ?? {}), `${match.operation.operationId} ${page.status} lists ${media}`).toContain(media);
  return page;
}

async function signupLink(website = 'acme.com', email = 'jane@example.com') {
  const a = await signupAccount(t);
  const filed = await fileOk(t, a.key, { website, email });
  return { a, filed, token: await signupToken(t, a.accountId, filed.requestId) };
}

async function hold(accountId: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${t.base}/_fixtures/accounts/${accountId}/purchase-approvals`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

const styleOf = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];

describe('content negotiation on the account-holder links', () => {
  it('when a browser opens a signup link, then it gets a page; JSON, a wildcard or no Accept get the JSON answer', async () => {
    const { token } = await signupLink();
    const page = await send('GET', `/v1/signup-requests/${token}`, { accept: BROWSER });
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html; charset=utf-8');
    for (const accept of ['application/json', '*/*', 'text/html;q=0.5, application/json', undefined]) {
      const json = await send('GET', `/v1/signup-requests/${token}`, { accept });
      expect(json.type, String(accept)).toMatch(/^application\/json/);
      expect(JSON.parse(json.text)).toMatchObject({ status: 'pending', website: 'acme.com', email: 'jane@example.com' });
    }
  });

  it('when the page and the JSON of one link are compared, then both carry no-store and the same security headers', async () => {
    const { token } = await signupLink();
    const page = await send('GET', `/v1/signup-requests/${token}`, { accept: BROWSER });
    const json = await send('GET', `/v1/signup-requests/${token}`, { accept: 'application/json' });
    for (const name of SECURITY_HEADERS) {
      expect(page.headers.get(name), name).not.toBeNull();
      expect(page.headers.get(name), name).toBe(json.headers.get(name));
    }
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('vary')).toBe('Accept');
  });

  it('when the page is read, then it needs no script and its policy allows exactly its own stylesheet and forms to the same origin', async () => {
    const { token } = await signupLink();
    const page = await send('GET', `/v1/signup-requests/${token}`, { accept: BROWSER });
    expect(page.text).not.toMatch(/<script|\son\w+=|javascript:/i);
    expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//i);
    const policy = page.headers.get('content-security-policy')!;
    const hash = createHash('sha256').update(styleOf(page.text)!, 'utf8').digest('base64');
    expect(policy.split('; ').sort()).toEqual(
      ["base-uri 'none'", "default-src 'none'", "form-action 'self'", "frame-ancestors 'none'", `style-src 'sha256-${hash}'`].sort(),
    );
  });

  it('when other operations are called, then they carry none of the page headers', async () => {
    const res = await fetch(`${t.base}/v1/recipes`, { headers: { accept: BROWSER } });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

describe('the signup page', () => {
  it('when opened, then it shows the site, the email and an Approve and a Deny form posting to the link itself', async () => {
    const { token } = await signupLink('acme.com', 'jane@example.com');
    const { text } = await send('GET', `/v1/signup-requests/${token}`, { accept: BROWSER });
    expect(text).toContain('<html lang="en">');
    expect(text).toContain('<h1>Approve the signup for acme.com?</h1>');
    expect(text).toContain('<dt>Site</dt><dd><bdi>acme.com</bdi></dd><dt>Email</dt><dd><bdi>jane@example.com</bdi></dd>');
    const forms = [...text.matchAll(/<form method="post">(.*?)<\/form>/g)].map((m) => m[1]);
    expect(forms).toEqual([
      '<input type="hidden" name="decision" value="approve"><button type="submit" class="approve">Approve</button>',
      '<input type="hidden" name="decision" value="deny"><button type="submit" class="deny">Deny</button>',
    ]);
  });

  it('when the email holds markup, then the page shows it as text', async () => {
    const { token } = await signupLink('acme.com', '<b>"jane"</b>@example.com');
    const { text } = await send('GET', `/v1/signup-requests/${token}`, { accept: BROWSER });
    expect(text).toContain('<dd><bdi>&lt;b&gt;&quot;jane&quot;&lt;/b&gt;@example.com</bdi></dd>');
    expect(text).not.toContain('<b>"jane"</b>');
  });

  it('when the form approves, then the request is approved, the page says so and the agent polls approved', async () => {
    const { a, filed, token } = await signupLink();
    const page = await send('POST', `/v1/signup-requests/${token}`, { accept: BROWSER, form: 'decision=approve' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Signup approved</h1>');
    const poll = await fetch(`${t.base}/v1/logins/requests/${filed.requestId}`, { headers: { authorization: `Bearer ${a.key}` } });
    expect(((await poll.json()) as { status: string }).status).toBe('approved');
    const again = await send('GET', `/v1/signup-requests/${token}`, { accept: BROWSER });
    expect(again.status).toBe(404);
    expect(again.text).toContain('<h1>This link no longer works</h1>');
  });

  it('when the form denies, then the request is denied and the page says so', async () => {
    const { a, token } = await signupLink();
    const page = await send('POST', `/v1/signup-requests/${token}`, { accept: BROWSER, form: 'decision=deny' });
    expect(page.text).toContain('<h1>Signup denied</h1>');
    expect((await links(t, a.accountId))[0]!.status).toBe('denied');
  });

  it('when no label is free, then the page names the reason with the document\'s figure, only to the account holder, and offers the decisions again', async () => {
    const { a, token } = await signupLink('acme.com');
    await addLogins(t, a.accountId, ['acme', ...Array.from({ length: 49 }, (_, i) => `acme${i + 2}`)]);
    const page = await send('POST', `/v1/signup-requests/${token}`, { accept: BROWSER, form: 'decision=approve' });
    expect(page.status).toBe(200);
    const labels = contract().limit('labels-per-site-name').value;
    expect(page.text).toContain('<div class="notice" role="alert"><h2>The approval could not complete</h2>');
    expect(page.text).toContain(`(acme, then acme2 to acme${labels})`);
    expect(page.text).toContain('name="decision" value="approve"');
    const reread = await send('GET', `/v1/signup-requests/${token}`, { accept: BROWSER });
    expect(reread.text).toContain('The approval could not complete');
  });

  it('when the form sends a decision the document does not list, then a 400 page names the problem and links back to the request', async () => {
    const { token } = await signupLink();
    const page = await send('POST', `/v1/signup-requests/${token}`, { accept: BROWSER, form: 'decision=maybe' });
    expect(page.status).toBe(400);
    expect(page.text).toContain('<h1>The decision was not taken</h1>');
    expect(page.text).toContain(`<a href="${token}">Back to the request</a>`);
    const json = await send('POST', `/v1/signup-requests/${token}`, { form: 'decision=maybe' });
    expect(JSON.parse(json.text)).toEqual({ code: 'bad_request', error: expect.any(String) });
  });

  it('when a form names the decision twice, then nothing is decided', async () => {
    const { token } = await signupLink();
    const json = await send('POST', `/v1/signup-requests/${token}`, { form: 'decision=approve&decision=deny' });
    expect(json.status).toBe(400);
    expect(JSON.parse((await send('GET', `/v1/signup-requests/${token}`)).text).status).toBe('pending');
  });

  it('when the form is over the 1 KB cap, then a 413 page says so and nothing is decided', async () => {
    const { token } = await signupLink();
    const cap = contract().limit('link-decision-body').value!;
    const page = await send('POST', `/v1/signup-requests/${token}`, { accept: BROWSER, form: `decision=approve&pad=${'x'.repeat(cap)}` });
    expect(page.status).toBe(413);
    expect(page.text).toContain(`larger than ${cap} bytes`);
    expect(JSON.parse((await send('GET', `/v1/signup-requests/${token}`)).text).status).toBe('pending');
  });
});

describe('the purchase page', () => {
  it('when the email or username has invisible or bidi characters, then the page isolates them and shows each as its code point', async () => {
    const a = await signupAccount(t);
    // U+202E would show "moc.elpmaxe@enaj" reversed; U+200B and U+2060 would hide; U+00A0 would look like a space.
    const email = 'jane\u202Emoc.elpmaxe@example.com';
    const username = 'sho\u200Bpper\u2060\u00A0x\u200Dy';
    const filed = await fileOk(t, a.key, { website: 'acme.com', email, username });
    const token = await signupToken(t, a.accountId, filed.requestId);
    const { text } = await send('GET', `/v1/signup-requests/${token}`, { accept: BROWSER });
    const cp = (hex: string) => `<span class="cp">U+${hex}</span>`;
    expect(text).toContain(`<dt>Email</dt><dd><bdi>jane${cp('202E')}moc.elpmaxe@example.com</bdi></dd>`);
    expect(text).toContain(`<dt>Username</dt><dd><bdi>sho${cp('200B')}pper${cp('2060')}${cp('00A0')}x${cp('200D')}y</bdi></dd>`);
    expect(text).not.toMatch(/[\u202E\u200B\u2060\u00A0\u200D]/);
    // The JSON answer carries the values as they were sent.
    expect(JSON.parse((await send('GET', `/v1/signup-requests/${token}`)).text)).toMatchObject({ email, username });
  });

  it('when a merchant or an amount has invisible or bidi characters, then the title, the details and the buttons show their code points', async () => {
    const a = await signupAccount(t);
    const token = await hold(a.accountId, { kind: 'amount_mismatch', amount: '$5\u202E2.40', merchant: 'shop.acme\u200B.com', declaredTotal: '$4\u20668.90' });
    const { text } = await send('GET', `/v1/approvals/${token}`, { accept: BROWSER });
    expect(text).toContain('<title>Approve the purchase at \u2068shop.acme[U+200B].com\u2069?</title>');
    expect(text).toContain('<dd><bdi>$5<span class="cp">U+202E</span>2.40</bdi></dd>');
    expect(text).toContain('<h1>Approve the purchase at <bdi>shop.acme<span class="cp">U+200B</span>.com</bdi>?</h1>');
    expect(text).toContain('Approve at the declared total (<bdi>$4<span class="cp">U+2066</span>8.90</bdi>)');
    expect(text.replace(/[\u2068\u2069]/g, '')).not.toMatch(/[\u202E\u200B\u2066]/);
  });

  it('when an amount_mismatch hold is opened, then it shows amount, merchant and declared total and offers only the declared approval and the denial', async () => {
    const a = await signupAccount(t);
    const token = await hold(a.accountId, { kind: 'amount_mismatch', amount: '$52.40', merchant: 'shop.acme.com', declaredTotal: '$48.90' });
    const { text } = await send('GET', `/v1/approvals/${token}`, { accept: BROWSER });
    expect(text).toContain('<title>Approve the purchase at \u2068shop.acme.com\u2069?</title>');
    expect(text).toContain('<h1>Approve the purchase at <bdi>shop.acme.com</bdi>?</h1>');
    expect(text).toContain('<dt>Merchant</dt><dd><bdi>shop.acme.com</bdi></dd><dt>Amount on the page</dt><dd><bdi>$52.40</bdi></dd><dt>Declared total</dt><dd><bdi>$48.90</bdi></dd>');
    const buttons = [...text.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/g)].map((m) => [m[1], m[2]]);
    expect(buttons).toEqual([
      [`${token}/decide`, '<input type="hidden" name="decision" value="approve"><input type="hidden" name="at" value="declared"><button type="submit" class="approve">Approve at the declared total (<bdi>$48.90</bdi>)</button>'],
      [`${token}/decide`, '<input type="hidden" name="decision" value="deny"><button type="submit" class="deny">Deny</button>'],
    ]);
    // The JSON answer is unchanged: the page's details are not part of it.
    expect(JSON.parse((await send('GET', `/v1/approvals/${token}`)).text)).toEqual({ status: 'pending', kind: 'amount_mismatch', offersDeclared: true, expiresAt: expect.any(Number) });
  });

  it('when a hold offers no declared total, then the page offers the page total and the denial, and shows no declared total', async () => {
    const a = await signupAccount(t);
    const token = await hold(a.accountId, { amount: '$12.00', declaredTotal: '$11.00' });
    const { text } = await send('GET', `/v1/approvals/${token}`, { accept: BROWSER });
    expect(text).toContain('Approve at the page total (<bdi>$12.00</bdi>)');
    expect(text).not.toContain('declared total');
    expect(text).not.toContain('$11.00');
  });

  it('when the declared approval is posted as a form, then it is approved at the declared total and the page says so', async () => {
    const a = await signupAccount(t);
    const token = await hold(a.accountId, { kind: 'amount_mismatch', amount: '$52.40', merchant: 'shop.acme.com', declaredTotal: '$48.90' });
    const page = await send('POST', `/v1/approvals/${token}/decide`, { accept: BROWSER, form: 'decision=approve&at=declared' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Approved at the declared total, <bdi>$48.90</bdi>, at <bdi>shop.acme.com</bdi>.');
    expect((await links(t, a.accountId))[0]!.status).toBe('approved');
  });

  it('when an amount_mismatch hold is approved at the page total, then a 400 page gives declared_required\'s sentence and the hold stays pending', async () => {
    const a = await signupAccount(t);
    const token = await hold(a.accountId, { kind: 'amount_mismatch' });
    const page = await send('POST', `/v1/approvals/${token}/decide`, { accept: BROWSER, form: 'decision=approve' });
    expect(page.status).toBe(400);
    const json = await send('POST', `/v1/approvals/${token}/decide`, { form: 'decision=approve' });
    const refusal = JSON.parse(json.text) as { code: string; error: string };
    expect(refusal.code).toBe('declared_required');
    expect(page.text).toContain(refusal.error);
    expect(page.text).toContain(`<a href="../${token}">Back to the request</a>`);
    expect((await send('GET', `/v1/approvals/${token}`)).status).toBe(200);
  });

  it('when the body is sent as another media type, then the refusal names both documented ones', async () => {
    const a = await signupAccount(t);
    const token = await hold(a.accountId, {});
    const res = await fetch(`${t.base}/v1/approvals/${token}/decide`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"decision":"approve"}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('Send the body with one of these Content-Types: application/json, application/x-www-form-urlencoded.');
  });
});

describe('the prompt pages', () => {
  it('when a security-code prompt and a challenge handoff are opened in a browser, then each gets its page and is used up', async () => {
    const a = await signupAccount(t);
    for (const [kind, title] of [
      ['cvv-requests', 'Security code requested'],
      ['challenge-requests', 'A challenge is handed to you'],
    ] as const) {
      const res = await fetch(`${t.base}/_fixtures/accounts/${a.accountId}/${kind}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } });
      const { token } = (await res.json()) as { token: string };
      const page = await send('GET', `/v1/${kind}/${token}`, { accept: BROWSER });
      expect(page.status).toBe(200);
      expect(page.text).toContain(`<h1>${title}</h1>`);
      expect((await send('GET', `/v1/${kind}/${token}`, { accept: BROWSER })).status).toBe(404);
    }
  });
});
