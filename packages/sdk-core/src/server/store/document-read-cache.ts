import type { LRUCache } from 'lru-cache';
import { timedCache } from '../kernel/timed-cache.js';
import type { DocumentRow } from './tables.js';

export interface DocumentReadCacheOptions {
  /** How long a row is answered from memory; a write by another process shows after at most this long. */
  ttlMs: number;
  /** Documents kept at most; past it the least recently used is dropped. */
  maxDocuments: number;
  /** Rows whose `data` is longer are not kept (graphs, large contexts): the cache is for small, hot documents. */
  maxDataCharacters: number;
  now?: () => number;
}

/** A document's rows by the reading scope (`find`'s query shape, project and human); its time to live is the first read's. */
type Entry = Map<string, DocumentRow>;

/**
 * Recently read `documents` rows of an embedded SQLite store, by kind and id. On SQLite the platform is one process
 * and every write to a document goes through {@link DocumentStore}, which forgets the document once its statement
 * ran; a write by another process on the same file (the `palaver` CLI) shows after `ttlMs` at most, as verified API
 * keys and model resolutions do (decision 0062). A document's first read of a request costs ~12 µs on a busy
 * server, most of it SQLite's code and pages coming back into the CPU's caches (~4 µs in a loop), an eighth of a
 * small GET (decisions 0076, 0083). Only rows read outside transactions are kept; a miss is never kept.
 *
 * @example
 * const row = cache.get('persona', id, scopeKey) ?? readAndKeep();
 */
export class DocumentReadCache {
  private readonly entries: LRUCache<string, Entry>;

  constructor(private readonly options: DocumentReadCacheOptions) {
    this.entries = timedCache({ max: options.maxDocuments, ttlMs: options.ttlMs, ...(options.now ? { now: options.now } : {}) });
  }

  get(kind: string, id: string, scope: string): DocumentRow | undefined {
    return this.entries.get(keyOf(kind, id))?.get(scope);
  }

  set(kind: string, id: string, scope: string, row: DocumentRow): void {
    if (row.data.length > this.options.maxDataCharacters) return;
    const key = keyOf(kind, id);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = new Map();
      this.entries.set(key, entry);
    }
    // Another scope's read joins the entry without extending its life.
    entry.set(scope, row);
  }

  /** The document changed (or may have): its next read goes to the database. */
  forget(kind: string, id: string): void {
    this.entries.delete(keyOf(kind, id));
  }

  /** Every document of `kind` (a write by a query over many ids). */
  forgetKind(kind: string): void {
    const prefix = keyOf(kind, '');
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

function keyOf(kind: string, id: string): string {
  return `${kind}\u0000${id}`;
}
