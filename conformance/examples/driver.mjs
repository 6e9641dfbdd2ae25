// qa/driver.mjs: the account-holder driver of your deployment, for
//   vault-conformance --driver ./qa/driver.mjs --driver-option back-office=<URL of your back office>
// An ES module (.mjs), so Node loads it as one whatever the package.json beside it says. Each method
// is one call to the back office, the side of the service the account holder uses, which the HTTP
// API does not offer to agents. The calls here follow the reference server's back office
// (openapi/back-office.yaml in the repository); replace each with your own back office's. Its token
// comes from the environment (BACK_OFFICE_TOKEN), never from the command line, where ps and CI logs
// would show it. The methods and their types: drivers/driver.ts in this package.

/** @type {import('@credential-vault/conformance/driver').DriverFactory} */
export default function createDriver({ options }) {
  const backOffice = options['back-office']?.replace(/\/+$/, '');
  const token = process.env.BACK_OFFICE_TOKEN;
  if (!backOffice) throw new Error('give the back office: --driver-option back-office=https://backoffice.example.com');
  if (!token) throw new Error('set BACK_OFFICE_TOKEN to a token of the back office');

  /** One call to the back office; a refusal throws, and the runner reports the case as an error. */
  async function call(method, path, body) {
    const res = await fetch(`${backOffice}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`back office ${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return text === '' ? undefined : JSON.parse(text);
  }
  const account = (id) => `/accounts/${encodeURIComponent(id)}`;

  return {
    async openAccount({ plan }) {
      const { accountId } = await call('POST', '/accounts', { plan });
      return { accountId };
    },
    async deleteAccount(accountId) {
      await call('DELETE', account(accountId));
    },
    async issueKey(accountId, { name, signup, scope }) {
      const { keyId, key } = await call('POST', `${account(accountId)}/keys`, { name: name ?? 'conformance', signup: signup ?? false, scope: scope ?? 'all' });
      return { keyId, key };
    },
    async revokeKey(accountId, keyId) {
      await call('DELETE', `${account(accountId)}/keys/${encodeURIComponent(keyId)}`);
    },
    async saveCard(accountId, card) {
      await call('POST', `${account(accountId)}/cards`, card);
    },
    async saveLogin(accountId, login) {
      const { label } = await call('POST', `${account(accountId)}/logins`, login);
      return { label };
    },
    async deleteLogin(accountId, label) {
      await call('DELETE', `${account(accountId)}/logins/${encodeURIComponent(label)}`);
    },
    async signupLink(accountId, requestId) {
      const { links } = await call('GET', `${account(accountId)}/links`);
      return links.find((link) => link.kind === 'signup' && link.requestId === requestId)?.token;
    },
    // Optional methods let more cases run; without them those cases are "not run: the driver
    // cannot ...", and the run is incomplete (exit 4) unless you accept it with --accept-incomplete:
    // changePlan, addKeyLogin, removeKeyLogin, replacePassword, setIdentity, saveAddress,
    // preapproveSites, removePreapprovedSite, holdPurchase, promptSecurityCode, handOffChallenge,
    // linkState, decideRecipeSubmission, registerWebhook with sendTestWebhook and webhookDeliveries,
    // sampleRecipe and registryPages (what only your registry knows: recipes in its format, pages it
    // serves), and clock with advanceClock over a manual clock.
  };
}
