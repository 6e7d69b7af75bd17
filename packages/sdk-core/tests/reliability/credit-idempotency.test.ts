import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ROUNDS = 100;
const CONCURRENT = 50;

// The row lock is what is under test, so this runs on PostgreSQL (SQLite serialises every transaction).
const kinds = (await storeKinds()).filter((kind) => kind === 'postgres');

describe.each(kinds)('credit idempotency under real concurrency (%s)', (kind) => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer(kind, { config: { webhook: { dispatch: false } } });
  });
  afterAll(async () => test.close());

  it(`${CONCURRENT} concurrent identical charges x ${ROUNDS} rounds -> exactly one entry per key, no server errors`, async () => {
    const credit = await test.client.credits.create({ name: 'stress', allow_negative_balance: true });
    const human = test.clientWith({ apiKey: test.server.apiKey, humanId: 'stress-human' });
    let serverErrors = 0;
    let otherErrors = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const results = await Promise.allSettled(
        Array.from({ length: CONCURRENT }, () => human.credits.createLedgerEntry(credit.id, { amount: -3, idempotency_key: `round-${round}` })),
      );
      const ids = new Set<string>();
      for (const result of results) {
        if (result.status === 'fulfilled') ids.add(`${result.value.id}:${result.value.balance}`);
        else if (ApiError.isInstance(result.reason) && result.reason.status >= 500) serverErrors += 1;
        else otherErrors += 1;
      }
      // Every caller of the round saw the one original entry (same id, same balance).
      expect(ids.size).toBe(1);
    }
    // How many such replays a second: `pnpm bench credits` (idempotent replays, against a GET of the same server).
    expect(serverErrors).toBe(0);
    expect(otherErrors).toBe(0);
    const audit = await test.server.services.credits.audit(test.server.project, credit.id, 'stress-human');
    expect(audit).toEqual({ balance: -3 * ROUNDS, sum: -3 * ROUNDS, entries: ROUNDS });
  }, 120_000);
});
