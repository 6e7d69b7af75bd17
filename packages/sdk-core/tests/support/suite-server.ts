import { afterAll, beforeAll } from 'vitest';
import type { CreateServerOptions } from '../../src/server.js';
import type { StoreKind } from './databases.js';
import { lateBound } from './late-bound.js';
import { startTestServer, type TestServer } from './test-server.js';

/**
 * The test server of a `describe` block: started on `kind` before its tests and closed after them.
 * Call it in the `describe` body; use the answer inside tests and hooks.
 *
 * @example
 * describe.each(await storeKinds())('personas (%s)', (kind) => {
 *   const test = useTestServer(kind);
 *   it('lists', async () => expect(await test.client.personas.list()).toHaveProperty('values'));
 * });
 */
export function useTestServer(kind: StoreKind, options: CreateServerOptions = {}): TestServer {
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(kind, options);
  });
  afterAll(async () => started?.close());
  return lateBound('the test server', () => started);
}
