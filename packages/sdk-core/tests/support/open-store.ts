import { openStore, type Store } from '../../src/server/store/database.js';
import { dropSchema, postgresUrl, uniqueSchema, type StoreKind } from './databases.js';

/** A store of `kind` with its own database (SQLite in memory, or a fresh PostgreSQL schema); `close` drops it. */
export async function openTestStore(kind: StoreKind): Promise<{ store: Store; close: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const store = await openStore({ file: ':memory:' });
    return { store, close: () => store.close() };
  }
  const schema = uniqueSchema();
  const store = await openStore({ url: postgresUrl, schema });
  return {
    store,
    close: async () => {
      await store.close();
      await dropSchema(schema);
    },
  };
}
