// The generator of client/generated/document.ts: it carries the document's facts, reads the meaning
// of each client error code when the document gives one, and refuses what it cannot carry.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocumentModule } from '../scripts/document-module.js';

const ROOT = join(import.meta.dirname, '..', '..');
const bundle = () => JSON.parse(readFileSync(join(ROOT, 'dist', 'openapi.json'), 'utf8'));

describe('renderDocumentModule', () => {
  it('when run on the bundle, then it renders the committed client/generated/document.ts', () => {
    expect(renderDocumentModule(bundle()).text).toBe(readFileSync(join(ROOT, 'client', 'generated', 'document.ts'), 'utf8'));
  });

  it('when ClientErrorCode gives a meaning for every code, then the meanings are a complete record of them', () => {
    const doc = bundle();
    const schema = doc.components.schemas.ClientErrorCode;
    schema['x-enumDescriptions'] = Object.fromEntries(schema.enum.map((code: string) => [code, `Meaning of\n  ${code}.`]));
    const { text, withoutMeaning } = renderDocumentModule(doc);
    expect(withoutMeaning).toEqual([]);
    expect(text).toContain("CLIENT_ERROR_MEANINGS: Readonly<Record<components['schemas']['ClientErrorCode'], string>>");
    expect(text).toContain('  token_not_found: "Meaning of token_not_found.",');
  });

  it('when some meanings are missing, then the record is partial and names how many are given', () => {
    const doc = bundle();
    doc.components.schemas.ClientErrorCode['x-enumDescriptions'] = { unanswered: 'Proxy stopped waiting for one call after 120 s; session survives' };
    const { text, withoutMeaning } = renderDocumentModule(doc);
    expect(withoutMeaning).not.toContain('unanswered');
    expect(text).toContain('Partial<Record<');
    expect(text).toContain('  unanswered: "Proxy stopped waiting for one call after 120 s; session survives",');
  });

  it('when a meaning names a code the schema does not list, then it refuses', () => {
    const doc = bundle();
    doc.components.schemas.ClientErrorCode['x-enumDescriptions'] = { not_a_code: 'x' };
    expect(() => renderDocumentModule(doc)).toThrow(/not_a_code, which is not in ClientErrorCode/);
  });

  it('when an operation is served by an unknown server, or a body member shares a parameter name, then it refuses', () => {
    const servers = bundle();
    servers.paths['/v1/tokens'].servers = [{ url: 'https://elsewhere.example' }];
    expect(() => renderDocumentModule(servers)).toThrow(/servers the client does not know/);
    const clash = bundle();
    clash.components.schemas.SignupDecision.properties.token = { type: 'string' };
    expect(() => renderDocumentModule(clash)).toThrow(/decideSignupApproval: body member token is also a parameter/);
  });

  it('when the document marks a body member x-ignore-wrong-type, then the strict member type follows it', () => {
    const { text } = renderDocumentModule(bundle());
    // An optional member also takes an explicit undefined (exactOptionalPropertyTypes).
    expect(text).toMatch(/fileSignupRequest: \{[\s\S]*?minLength\?: number \| undefined;[\s\S]*?noSymbols\?: boolean \| undefined;[\s\S]*?symbols\?: string \| undefined;/);
  });

  it('when the event schema leaves type open, then the event types are those of the webhook examples; when it gives them, those', () => {
    expect(renderDocumentModule(bundle()).text).toContain('export const WEBHOOK_EVENT_TYPES = ["test"] as const;');
    const examples = bundle();
    examples.webhooks.agentCardEvent.post.requestBody.content['application/json'].examples.limit = {
      value: { id: 'evt_2', type: 'card.limit_reached', created_at: '2026-01-01T00:00:00Z', agent_card_id: 'card_1' },
    };
    expect(renderDocumentModule(examples).text).toContain('export const WEBHOOK_EVENT_TYPES = ["test", "card.limit_reached"] as const;');
    const named = bundle();
    named.components.schemas.WebhookEvent.properties.type = { type: 'string', enum: ['test', 'card.paused'] };
    const text = renderDocumentModule(named).text;
    expect(text).toContain('export const WEBHOOK_EVENT_TYPES = ["test", "card.paused"] as const;');
    expect(text).toContain('"type":{"values":["test","card.paused"]}');
    const none = bundle();
    delete none.webhooks.agentCardEvent.post.requestBody.content['application/json'].examples;
    expect(() => renderDocumentModule(none)).toThrow(/name no event type/);
  });

  it("when an operation's answer is a union, then each branch is a shape, with its required members' types and constants", () => {
    const text = renderDocumentModule(bundle()).text;
    expect(text).toMatch(/getRecipes: \[\{"name":"RecipeIndex","types":\["object"\],"required":\{"recipes":\{"types":\["array"\]\}\}\},\{"name":"RecipeLookup"/);
    expect(text).toContain('{"name":"SignupRequestPending","types":["object"],"required":{"status":{"values":["pending"]},"expiresAt":{"types":["integer"]}}}');
    expect(text).toContain('"merchant":{"types":["object","null"]}');
  });
});
