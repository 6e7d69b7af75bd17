/**
 * Test helpers (Node only): the embedded platform in process, with a client already pointed at it.
 *
 * @example
 * import { createTestPlatform } from '@palaver/sdk-core/testing';
 * const platform = await createTestPlatform();
 * const persona = await platform.client.personas.create({ name: 'Ada', description: 'Tutor', voice: 'flite-slt' });
 * await platform.close();
 */
import { createClient, type PalaverClient } from '../client/create-client.js';
import type { ClientOptions } from '../client/http-client.js';
import { createServer, type CreateServerOptions, type PalaverServer } from '../server/app/create-server.js';

export interface TestPlatform {
  server: PalaverServer;
  /** A client with the development API key, talking to the server in process (no socket). */
  client: PalaverClient;
  /** Another in-process client, e.g. with a usage token or a human id. */
  clientWith(options: Omit<ClientOptions, 'fetch' | 'baseUrl'>): PalaverClient;
  close(): Promise<void>;
}

/** Starts the platform in memory (SQLite `:memory:`, silent logs) unless options say otherwise. */
export async function createTestPlatform(options: CreateServerOptions = {}): Promise<TestPlatform> {
  const server = await createServer({ env: {}, ...options, config: { logLevel: 'silent', ...options.config } });
  const clientWith = (clientOptions: Omit<ClientOptions, 'fetch' | 'baseUrl'>) =>
    createClient({ baseUrl: 'http://palaver.test', fetch: server.fetch, maxRetries: 0, ...clientOptions });
  return { server, client: clientWith({ apiKey: server.apiKey }), clientWith, close: () => server.close() };
}
