import { describe, expect, it } from 'vitest';
import { diffDocuments } from '../../scripts/contract/diff.js';
import { loadBundle, type Node } from './bundle.js';

/**
 * The contract gate's one rule about pages: a `text/html` page added beside a response's JSON (the
 * account-holder links) breaks no client, since only a browser asks for it, while any other media
 * type added to a response that already has a body still breaks clients.
 */

const released = loadBundle();

function withMediaType(type: string): Node {
  const doc = structuredClone(released);
  doc.paths['/v1/tokens'].get.responses['200'].content[type] = { schema: { type: 'string' }, examples: { page: { value: 'x' } } };
  return doc;
}

const mediaTypeChanges = (doc: Node) => diffDocuments(released, doc).filter((c) => c.kind === 'media-type-added');

describe('the contract gate on response media types', () => {
  it('when a text/html page is added beside a JSON answer, then the change breaks no one', () => {
    expect(mediaTypeChanges(withMediaType('text/html'))).toEqual([expect.objectContaining({ breaking: false, operationId: 'getTokenCatalog' })]);
  });

  it('when another media type is added to a response with a body, then it still breaks clients', () => {
    expect(mediaTypeChanges(withMediaType('text/plain'))).toEqual([expect.objectContaining({ breaking: true, audience: 'client' })]);
  });

  it('when a text/html page replaces a response\'s only body, then it still breaks clients', () => {
    const doc = structuredClone(released);
    const content = doc.paths['/v1/tokens'].get.responses['200'].content;
    doc.paths['/v1/tokens'].get.responses['200'].content = { 'text/html': { schema: { type: 'string' } } };
    expect(content['application/json']).toBeDefined();
    const changes = diffDocuments(released, doc).filter((c) => c.kind.startsWith('media-type'));
    expect(changes.map((c) => [c.kind, c.breaking])).toEqual([
      ['media-type-removed', true],
      ['media-type-added', true],
    ]);
  });
});
