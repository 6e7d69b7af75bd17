import { beforeAll } from 'vitest';
import type { PalaverClient } from '../../src/index.js';
import { lateBound } from './late-bound.js';
import type { TestServer } from './test-server.js';

/**
 * A client acting for one human, as a browser would: it holds only a usage token that the project's
 * API key issued for `human`.
 *
 * @example
 * const tina = await humanClient(test, 'tina');
 * expect(PermissionDeniedError.isInstance(await failureOf(tina.tools.list()))).toBe(true);
 */
export async function humanClient(test: TestServer, human: string): Promise<PalaverClient> {
  const { token } = await test.client.usage.createToken({ human });
  return test.clientWith({ usageToken: token });
}

/**
 * The {@link humanClient} of a `describe` block, created in a `beforeAll` hook once `test` has started
 * (call it after `useTestServer`, whose hook must run first).
 *
 * @example
 * const test = useTestServer(kind);
 * const alice = useHumanClient(test, 'alice');
 */
export function useHumanClient(test: TestServer, human: string): PalaverClient {
  let client: PalaverClient | undefined;
  beforeAll(async () => {
    client = await humanClient(test, human);
  });
  return lateBound(`the client of human "${human}"`, () => client);
}
