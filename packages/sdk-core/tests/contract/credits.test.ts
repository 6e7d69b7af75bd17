import { beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError, type PalaverClient } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { humanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';

describe.each(await storeKinds())('credits and ledgers (%s)', (kind) => {
  const test = useTestServer(kind, { config: { webhook: { dispatch: false } } });
  let asAlice: PalaverClient;
  let asBob: PalaverClient;
  beforeAll(() => {
    asAlice = test.clientWith({ apiKey: test.server.apiKey, humanId: 'alice' });
    asBob = test.clientWith({ apiKey: test.server.apiKey, humanId: 'bob' });
  });

  it('creates, retrieves and lists credits', async () => {
    const credit = await test.client.credits.create({ name: 'minutes', description: 'Talk time', allow_negative_balance: false });
    expect(credit).toMatchObject({ name: 'minutes', description: 'Talk time', allow_negative_balance: false, project: test.server.project });
    expect(credit.id).toMatch(/^credit_/);
    expect(await test.client.credits.retrieve(credit.id)).toEqual(credit);
    const defaults = await test.client.credits.create({ name: 'coins' });
    expect(defaults).toMatchObject({ description: '', allow_negative_balance: false });
    const firstPage = await test.client.credits.list({ page_size: 1 });
    expect(firstPage.values).toHaveLength(1);
    expect(firstPage.total_count).toBeGreaterThanOrEqual(2);
    const all: string[] = [];
    for await (const item of test.client.credits.list({ page_size: 1 })) all.push(item.id);
    expect(all).toEqual(expect.arrayContaining([credit.id, defaults.id]));
  });

  it('answers 404 for unknown credits and for a human without entries', async () => {
    for (const call of [
      () => test.client.credits.retrieve('credit_missing'),
      () => asAlice.credits.createLedgerEntry('credit_missing', { amount: 1, idempotency_key: 'k' }),
      () => asAlice.credits.latestLedgerEntry('credit_missing'),
    ]) {
      const error = await failureOf(call());
      expect(NotFoundError.isInstance(error)).toBe(true);
      expect((error as NotFoundError).message).toContain('credit_missing');
    }
    const credit = await test.client.credits.create({ name: 'empty' });
    const error = await failureOf(test.clientWith({ apiKey: test.server.apiKey, humanId: 'nobody' }).credits.latestLedgerEntry(credit.id));
    expect(NotFoundError.isInstance(error)).toBe(true);
    expect((error as NotFoundError).message).toMatch(/human 'nobody' has no ledger entries/);
  });

  it('rejects invalid input with 400 invalid_input naming the field', async () => {
    const credit = await test.client.credits.create({ name: 'validated' });
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => test.client.credits.create({ description: 'no name' } as never), 'name'],
      [() => test.client.credits.create({ name: 'x', allow_negative_balance: 'yes' } as never), 'allow_negative_balance'],
      [() => asAlice.credits.createLedgerEntry(credit.id, { amount: 1.5, idempotency_key: 'fraction' }), 'amount'],
      [() => asAlice.credits.createLedgerEntry(credit.id, { amount: 2 ** 60, idempotency_key: 'huge' }), 'amount'],
      [() => asAlice.credits.createLedgerEntry(credit.id, { amount: 1 } as never), 'idempotency_key'],
      [() => asAlice.credits.createLedgerEntry(credit.id, { amount: 1, idempotency_key: '' }), 'idempotency_key'],
      [() => test.client.credits.createLedgerEntry(credit.id, { amount: 1, idempotency_key: 'no-human' }), 'x-human-id'],
      [() => test.client.credits.latestLedgerEntry(credit.id), 'x-human-id'],
    ];
    for (const [call, field] of cases) {
      const error = await failureOf(call());
      expect(BadRequestError.isInstance(error), field).toBe(true);
      expect((error as BadRequestError).type).toBe('invalid_input');
      expect((error as BadRequestError).message).toContain(field);
    }
  });

  it('keeps usage tokens away from K operations and requires credentials', async () => {
    const credit = await test.client.credits.create({ name: 'guarded' });
    const asToken = await humanClient(test, 'alice');
    for (const call of [
      () => asToken.credits.create({ name: 'mine' }),
      () => asToken.credits.createLedgerEntry(credit.id, { amount: 100, idempotency_key: 'self-grant' }),
    ]) {
      const error = await failureOf(call());
      expect(PermissionDeniedError.isInstance(error)).toBe(true);
    }
    await expect(asToken.credits.retrieve(credit.id)).resolves.toMatchObject({ id: credit.id });
    await expect(asToken.credits.list()).resolves.toMatchObject({ total_count: expect.any(Number) });
    const anonymous = test.clientWith({});
    expect(AuthenticationError.isInstance(await failureOf(anonymous.credits.list()))).toBe(true);
  });

  it('grants, charges, refuses overdrafts and reports the latest entry', async () => {
    const credit = await test.client.credits.create({ name: 'strict' });
    const grant = await asAlice.credits.createLedgerEntry(credit.id, { amount: 10, idempotency_key: 'grant-1' });
    expect(grant).toMatchObject({ credit: credit.id, human: 'alice', amount: 10, balance: 10, idempotency_key: 'grant-1' });
    const charge = await asAlice.credits.createLedgerEntry(credit.id, { amount: -4, idempotency_key: 'charge-1' });
    expect(charge.balance).toBe(6);
    const error = await failureOf(asAlice.credits.createLedgerEntry(credit.id, { amount: -7, idempotency_key: 'charge-2' }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect((error as BadRequestError).type).toBe('invalid_input');
    expect((error as BadRequestError).message).toContain('insufficient balance');
    expect(await asAlice.credits.latestLedgerEntry(credit.id)).toEqual(charge);
    // The refused charge wrote nothing: the key is still free and the balance unchanged.
    const exact = await asAlice.credits.createLedgerEntry(credit.id, { amount: -6, idempotency_key: 'charge-2' });
    expect(exact.balance).toBe(0);
    expect(await test.server.services.credits.audit(test.server.project, credit.id, 'alice')).toEqual({ balance: 0, sum: 0, entries: 3 });
  });

  it('lets a credit with allow_negative_balance go below zero', async () => {
    const credit = await test.client.credits.create({ name: 'postpaid', allow_negative_balance: true });
    const entry = await asAlice.credits.createLedgerEntry(credit.id, { amount: -25, idempotency_key: 'postpaid-1' });
    expect(entry.balance).toBe(-25);
    expect((await asAlice.credits.createLedgerEntry(credit.id, { amount: 5, idempotency_key: 'postpaid-2' })).balance).toBe(-20);
  });

  it('deduplicates by idempotency_key per credit and human', async () => {
    const credit = await test.client.credits.create({ name: 'idempotent' });
    const first = await asAlice.credits.createLedgerEntry(credit.id, { amount: 50, idempotency_key: 'same' });
    const again = await asAlice.credits.createLedgerEntry(credit.id, { amount: 50, idempotency_key: 'same' });
    expect(again).toEqual(first);
    const conflict = await failureOf(asAlice.credits.createLedgerEntry(credit.id, { amount: 60, idempotency_key: 'same' }));
    expect(BadRequestError.isInstance(conflict)).toBe(true);
    expect((conflict as BadRequestError).message).toContain('idempotency_key');
    // The same key is independent for another human.
    const forBob = await asBob.credits.createLedgerEntry(credit.id, { amount: 7, idempotency_key: 'same' });
    expect(forBob).toMatchObject({ human: 'bob', balance: 7 });
    expect(forBob.id).not.toBe(first.id);
    expect(await test.server.services.credits.audit(test.server.project, credit.id, 'alice')).toEqual({ balance: 50, sum: 50, entries: 1 });
  });

  it('scopes ledgers to the human: a usage token reads only its own balance', async () => {
    const credit = await test.client.credits.create({ name: 'scoped' });
    await asAlice.credits.createLedgerEntry(credit.id, { amount: 3, idempotency_key: 'a' });
    await asBob.credits.createLedgerEntry(credit.id, { amount: 9, idempotency_key: 'b' });
    const { token } = await test.client.usage.createToken({ human: 'alice' });
    const aliceToken = test.clientWith({ usageToken: token });
    expect((await aliceToken.credits.latestLedgerEntry(credit.id)).balance).toBe(3);
    const spoof = test.clientWith({ usageToken: token, humanId: 'bob' });
    expect(PermissionDeniedError.isInstance(await failureOf(spoof.credits.latestLedgerEntry(credit.id)))).toBe(true);
    expect((await asBob.credits.latestLedgerEntry(credit.id)).balance).toBe(9);
  });

  it('keeps 64-bit amounts exact up to the safe integer range', async () => {
    const credit = await test.client.credits.create({ name: 'big' });
    const big = Number.MAX_SAFE_INTEGER - 1;
    const entry = await asAlice.credits.createLedgerEntry(credit.id, { amount: big, idempotency_key: 'big-1' });
    expect(entry.balance).toBe(big);
    expect((await asAlice.credits.createLedgerEntry(credit.id, { amount: 1, idempotency_key: 'big-2' })).balance).toBe(Number.MAX_SAFE_INTEGER);
    const overflow = await failureOf(asAlice.credits.createLedgerEntry(credit.id, { amount: 1, idempotency_key: 'big-3' }));
    expect(BadRequestError.isInstance(overflow)).toBe(true);
    expect((await asAlice.credits.latestLedgerEntry(credit.id)).balance).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('never goes negative under 200 concurrent charges against a balance of 100', async () => {
    const credit = await test.client.credits.create({ name: 'contended' });
    await asAlice.credits.createLedgerEntry(credit.id, { amount: 100, idempotency_key: 'seed' });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_unused, index) =>
        asAlice.credits.createLedgerEntry(credit.id, { amount: -(1 + (index % 10)), idempotency_key: `charge-${index}` }),
      ),
    );
    const accepted = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    expect(refused.every((error) => BadRequestError.isInstance(error) && error.message.includes('insufficient balance'))).toBe(true);
    expect(accepted.every((entry) => entry.balance >= 0)).toBe(true);
    const charged = accepted.reduce((total, entry) => total - entry.amount, 0);
    expect(charged).toBeLessThanOrEqual(100);
    // Balances form one chain: each accepted entry's balance is distinct and consistent with the total.
    expect(new Set(accepted.map((entry) => entry.balance)).size).toBe(accepted.length);
    const audit = await test.server.services.credits.audit(test.server.project, credit.id, 'alice');
    expect(audit).toEqual({ balance: 100 - charged, sum: 100 - charged, entries: accepted.length + 1 });
    expect((await asAlice.credits.latestLedgerEntry(credit.id)).balance).toBe(100 - charged);
  });
});
