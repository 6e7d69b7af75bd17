import { createServer, type PalaverServer } from '@palaver/sdk-core/server';

/**
 * Opens the platform on a database for an administrative command: no listener, silent logs, and no webhook
 * dispatcher (a running server delivers; the CLI only inspects and changes state).
 */
export async function openDatabase(database: string | undefined): Promise<PalaverServer> {
  if (!database) throw new Error('--database is required (a SQLite file or a postgres:// URL); an in-memory database has nothing to manage');
  return createServer({
    config: {
      logLevel: 'silent',
      webhook: { dispatch: false },
      ...(/^postgres(ql)?:\/\//.test(database) ? { databaseUrl: database } : { database }),
    },
  });
}

/** Runs `work` with the opened platform and always closes it. */
export async function withDatabase<T>(database: string | undefined, work: (server: PalaverServer) => Promise<T>): Promise<T> {
  const server = await openDatabase(database);
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}
