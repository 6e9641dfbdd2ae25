// An agent matching an event to a card it holds (section 6 item 3 names the card by `agent_card_id`):
// the catalog's card entries (GET /v1/tokens) carry an agent card's id as `agentCardId`, the
// reference's own member. And the back office's webhook routes go through the domain.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { receiver, sandbox } from './webhook-support.js';

describe('getTokenCatalog: agent cards', () => {
  it("when a test event arrives, then its agent_card_id is the agentCardId of one card in the agent's catalog", async () => {
    const s = await sandbox();
    const r = await receiver();
    const { account, card, hook } = await s.agentCard();
    const plain = (await s.call('POST', `/accounts/${account}/cards`, { number: '4111111111111111', anySite: true })).body.cardId as string;
    const { key } = (await s.call('POST', `/accounts/${account}/keys`, { name: 'agent' })).body;
    await s.call('PUT', hook, { url: r.url });
    await s.call('POST', `${hook}/test`);
    await s.deliveries(hook);
    const event = JSON.parse(r.received[0]!.body.toString());

    const catalog = await s.call('GET', '/v1/tokens', undefined, key);
    expect(catalog.status).toBe(200);
    const cards = catalog.body.cards as { agentCardId?: string }[];
    expect(cards).toHaveLength(2);
    expect(cards.filter((c) => c.agentCardId === event.agent_card_id)).toHaveLength(1);
    expect(event.agent_card_id).toBe(card);
    // A card that is not an agent card has no webhooks, and no id in the catalog.
    expect(cards.filter((c) => c.agentCardId === undefined)).toHaveLength(1);
    expect(JSON.stringify(catalog.body)).not.toContain(plain);
  });

  it('when the catalog is narrowed to a page, then an agent card still carries its id', async () => {
    const s = await sandbox();
    const { account, card } = await s.agentCard();
    const { key } = (await s.call('POST', `/accounts/${account}/keys`, { name: 'agent' })).body;
    const narrowed = await s.call('GET', `/v1/tokens?url=${encodeURIComponent('https://www.acme.com/checkout')}`, undefined, key);
    expect(narrowed.body.cards).toEqual([expect.objectContaining({ anySite: true, agentCardId: card })]);
  });
});

describe('the back office routes', () => {
  it('when the routes are read, then they reach the store and the sender only through the domain (domain/back-office/)', () => {
    const dir = new URL('../http/back-office/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('webhooks.ts');
    for (const file of files) {
      const imports = [...readFileSync(new URL(file, dir), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      expect(imports.filter((i) => /\/store\/|\/webhooks\//.test(i!)), file).toEqual([]);
    }
    expect(readFileSync(new URL('webhooks.ts', dir), 'utf8')).toContain("from '../../domain/back-office/webhooks.js'");
  });
});
