import { createTestPlatform, type TestPlatform } from '../../src/testing.js';
import type { CreateServerOptions } from '../../src/server.js';
import { dropSchema, postgresUrl, uniqueSchema, type StoreKind } from './databases.js';

export type TestServer = TestPlatform;

/** Starts a real server on the given store (in process; call `server.listen()` for a socket). */
export async function startTestServer(kind: StoreKind = 'sqlite', options: CreateServerOptions = {}): Promise<TestServer> {
  const schema = kind === 'postgres' ? uniqueSchema() : undefined;
  const platform = await createTestPlatform({
    ...options,
    config: { ...(kind === 'postgres' ? { databaseUrl: postgresUrl } : {}), ...options.config },
    ...(schema ? { databaseSchema: schema } : {}),
  });
  return {
    ...platform,
    async close() {
      await platform.close();
      if (schema) await dropSchema(schema);
    },
  };
}
