import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './database.js';
import { DocumentStore } from './document-store.js';

interface Note {
  text: string;
}

describe('DocumentStore.find on SQLite', () => {
  let store: Store | undefined;
  afterEach(async () => store?.close());

  async function seeded(): Promise<DocumentStore<Note>> {
    store = await openStore({ file: ':memory:' });
    const notes = new DocumentStore<Note>(store, 'note');
    await notes.insert({ id: 'note_1', project: 'project_a', data: { text: 'committed' } });
    return notes;
  }

  it('reads synchronously outside transactions, and never sees what an open transaction has not committed', async () => {
    const notes = await seeded();
    const scope = { project: 'project_a', human: null };
    expect(store!.readNow).toBeDefined();
    expect((await notes.find('note_1', scope))?.data).toEqual({ text: 'committed' });

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let updated!: () => void;
    const written = new Promise<void>((resolve) => (updated = resolve));
    const transaction = store!.transaction(async (trx) => {
      // Through the DocumentStore, which forgets the kept read: the next read goes to the database.
      await notes.replace('note_1', scope, { text: 'uncommitted' }, {}, trx);
      updated();
      await gate;
      throw new Error('rolled back');
    });
    await written;
    // The transaction is open with its write: the read waits for it instead of reading the row in between.
    let read: Note | undefined;
    const reading = notes.find('note_1', scope).then((found) => (read = found?.data));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(read).toBeUndefined();
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    await reading;
    expect(read).toEqual({ text: 'committed' });
  });

  it('answers the same documents through either path: scope, deletion and other projects', async () => {
    const notes = await seeded();
    await notes.insert({ id: 'note_2', project: 'project_b', data: { text: 'other project' } });
    await notes.insert({ id: 'note_3', project: null, data: { text: 'built in' } });
    await notes.insert({ id: 'note_4', project: 'project_a', human: 'alice', data: { text: "alice's" } });
    const ids = ['note_1', 'note_2', 'note_3', 'note_4', 'note_missing'];
    const scopes = [
      { project: 'project_a', human: null },
      { project: 'project_a', human: null, includeGlobal: true },
      { project: 'project_a', human: 'bob' },
      { project: 'project_a', human: 'alice' },
    ];
    const answers = async () => Promise.all(scopes.flatMap((scope) => ids.map(async (id) => (await notes.find(id, scope))?.data.text ?? null)));
    const synchronous = await answers();
    expect(synchronous).toEqual([
      'committed',
      null,
      null,
      "alice's",
      null,
      'committed',
      null,
      'built in',
      "alice's",
      null,
      'committed',
      null,
      null,
      null,
      null,
      'committed',
      null,
      null,
      "alice's",
      null,
    ]);
    // The same reads from inside a transaction go through Kysely.
    const throughKysely = await store!.transaction(async (trx) =>
      Promise.all(scopes.flatMap((scope) => ids.map(async (id) => (await notes.find(id, scope, trx))?.data.text ?? null))),
    );
    expect(throughKysely).toEqual(synchronous);
    await notes.delete('note_1', { project: 'project_a', human: null });
    expect(await notes.find('note_1', { project: 'project_a', human: null })).toBeUndefined();
  });

  it('answers a document read again from memory, and every write through the DocumentStore shows at once', async () => {
    const notes = await seeded();
    const scope = { project: 'project_a', human: null };
    const text = async () => (await notes.find('note_1', scope))?.data.text;
    expect(await text()).toBe('committed');
    expect(store!.documentReads!.size).toBe(1);
    // A write around the DocumentStore is not seen while the read is kept (the cache's contract: another
    // process's writes show after its time to live)...
    await store!.db
      .updateTable('documents')
      .set({ data: JSON.stringify({ text: 'around' }) })
      .where('id', '=', 'note_1')
      .execute();
    expect(await text()).toBe('committed');
    // ...every write through it is.
    await notes.replace('note_1', scope, { text: 'replaced' });
    expect(await text()).toBe('replaced');
    await notes.update('note_1', scope, () => ({ text: 'updated' }));
    expect(await text()).toBe('updated');
    await expect(notes.update('note_1', scope, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await text()).toBe('updated');
    await notes.upsert({ id: 'note_1', project: 'project_a', data: { text: 'upserted' } });
    expect(await text()).toBe('upserted');
    await notes.delete('note_1', scope, { soft: true });
    expect(await text()).toBeUndefined();
    await notes.upsert({ id: 'note_1', project: 'project_a', data: { text: 'restored' } });
    expect(await text()).toBe('restored');
    await notes.delete('note_1', scope);
    expect(await text()).toBeUndefined();
    await notes.insert({ id: 'note_1', project: 'project_a', data: { text: 'inserted again' } });
    expect(await text()).toBe('inserted again');
  });

  it('shows a write by another process on the same file within a second', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'palaver-reads-'));
    const file = join(folder, 'store.db');
    store = await openStore({ file });
    const other = await openStore({ file });
    try {
      const notes = new DocumentStore<Note>(store, 'note');
      await notes.insert({ id: 'note_1', project: null, data: { text: 'first' } });
      const scope = { project: 'project_a', human: null, includeGlobal: true };
      expect((await notes.find('note_1', scope))?.data.text).toBe('first');
      await new DocumentStore<Note>(other, 'note').replace('note_1', { project: 'project_a', human: null, includeGlobal: true }, { text: 'second' });
      await expect.poll(async () => (await notes.find('note_1', scope))?.data.text, { timeout: 1500, interval: 50 }).toBe('second');
    } finally {
      await other.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
