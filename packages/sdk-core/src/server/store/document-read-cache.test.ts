import { describe, expect, it } from 'vitest';
import { DocumentReadCache } from './document-read-cache.js';
import type { DocumentRow } from './tables.js';

function row(id: string, data = '{}'): DocumentRow {
  return { kind: 'note', id, project: 'p', human: null, parent: null, name: null, tags: null, data, created_at: 't', updated_at: 't', deleted_at: null };
}

describe('DocumentReadCache', () => {
  it('answers a kept row per reading scope until its time to live ends', () => {
    let now = 1_000;
    const cache = new DocumentReadCache({ ttlMs: 1000, maxDocuments: 10, maxDataCharacters: 100, now: () => now });
    cache.set('note', 'n1', 'scope-a', row('n1'));
    expect(cache.get('note', 'n1', 'scope-a')?.id).toBe('n1');
    expect(cache.get('note', 'n1', 'scope-b')).toBeUndefined();
    expect(cache.get('other', 'n1', 'scope-a')).toBeUndefined();
    now += 999;
    expect(cache.get('note', 'n1', 'scope-a')?.id).toBe('n1');
    // A second scope's read joins the document's entry, not extending its life.
    cache.set('note', 'n1', 'scope-b', row('n1'));
    now += 1;
    expect(cache.get('note', 'n1', 'scope-a')).toBeUndefined();
    expect(cache.get('note', 'n1', 'scope-b')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('forgets one document, or every document of a kind', () => {
    const cache = new DocumentReadCache({ ttlMs: 1000, maxDocuments: 10, maxDataCharacters: 100 });
    cache.set('note', 'n1', 's', row('n1'));
    cache.set('note', 'n2', 's', row('n2'));
    cache.set('notebook', 'n1', 's', row('n1'));
    cache.forget('note', 'n1');
    expect(cache.get('note', 'n1', 's')).toBeUndefined();
    expect(cache.get('note', 'n2', 's')?.id).toBe('n2');
    cache.forgetKind('note');
    expect(cache.get('note', 'n2', 's')).toBeUndefined();
    // `notebook` starts with `note` but is another kind.
    expect(cache.get('notebook', 'n1', 's')?.id).toBe('n1');
  });

  it('keeps at most maxDocuments (the oldest goes first) and no large documents', () => {
    const cache = new DocumentReadCache({ ttlMs: 1000, maxDocuments: 2, maxDataCharacters: 10 });
    cache.set('note', 'n1', 's', row('n1'));
    cache.set('note', 'n2', 's', row('n2'));
    cache.set('note', 'n3', 's', row('n3'));
    expect(cache.size).toBe(2);
    expect(cache.get('note', 'n1', 's')).toBeUndefined();
    expect(cache.get('note', 'n3', 's')?.id).toBe('n3');
    cache.set('note', 'big', 's', row('big', JSON.stringify({ text: 'more than ten characters' })));
    expect(cache.get('note', 'big', 's')).toBeUndefined();
  });
});
