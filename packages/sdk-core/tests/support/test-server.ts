import { createClient, type PalaverClient } from '../../src/index.js';
import type { ClientOptions } from '../../src/client/http-client.js';
import { createServer, type CreateServerOptions, type PalaverServer } from '../../src/server.js';
import { dropSchema, postgresUrl, uniqueSchema, type StoreKind } from './databases.js';

export interface TestServer {
  server: PalaverServer;
  /** A client with the dev API key, in process. */
  client: PalaverClient;
  /** Builds another in-process client (other credentials, a human...). */
  clientWith(options: Omit<ClientOptions, 'fetch' | 'baseUrl'>): PalaverClient;
  close(): Promise<void>;
}

/** Starts a real server on the given store (in process; call `server.listen()` for a socket). */
export async function startTestServer(kind: StoreKind = 'sqlite', options: CreateServerOptions = {}): Promise<TestServer> {
  const schema = kind === 'postgres' ? uniqueSchema() : undefined;
  const server = await createServer({
    env: {},
    ...options,
    config: {
      logLevel: 'silent',
      ...(kind === 'postgres' ? { databaseUrl: postgresUrl } : {}),
      ...options.config,
    },
    ...(schema ? { databaseSchema: schema } : {}),
  });
  const clientWith = (clientOptions: Omit<ClientOptions, 'fetch' | 'baseUrl'>) =>
    createClient({ baseUrl: 'http://palaver.test', fetch: server.fetch, maxRetries: 0, ...clientOptions });
  return {
    server,
    client: clientWith({ apiKey: server.apiKey }),
    clientWith,
    async close() {
      await server.close();
      if (schema) await dropSchema(schema);
    },
  };
}
