import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKinds } from '../../../../tests/support/databases.js';
import { openTestStore } from '../../../../tests/support/open-store.js';
import type { Store } from '../database.js';
import { newId } from '../ids.js';
import type { WebhookDeliveryRow, WebhookEventRow } from '../tables.js';
import {
  appendLedgerEntry,
  claimDueDeliveries,
  commitUsage,
  isUniqueViolation,
  lockRows,
  serialiseOn,
  writeUsage,
  type LedgerAppend,
  type LedgerAppendOutcome,
  type OutboxWrite,
} from './index.js';

const NOW = '2026-01-01T00:00:00.000Z';

function append(overrides: Partial<LedgerAppend> = {}): LedgerAppend {
  return {
    id: newId('ledger'),
    credit: 'credit_1',
    project: 'project_a',
    human: 'alice',
    amount: 10,
    idempotencyKey: newId('key'),
    allowNegative: false,
    ...overrides,
  };
}

function delivery(event: WebhookEventRow, endpointId: string, overrides: Partial<WebhookDeliveryRow> = {}): WebhookDeliveryRow {
  return {
    id: newId('delivery'),
    event_id: event.id,
    endpoint_id: endpointId,
    project: event.project,
    status: 'pending',
    attempts: 0,
    next_attempt_at: NOW,
    lease_owner: null,
    lease_until: null,
    last_status: null,
    last_error: null,
    delivered_at: null,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

function event(project: string): WebhookEventRow {
  return { id: newId('msg'), project, type: 'usage.tracked', body: '{}', created_at: NOW };
}

/** An outcome with the entry's bigint columns as numbers (PostgreSQL's driver answers them as strings). */
function numeric(outcome: LedgerAppendOutcome): unknown {
  if (outcome.kind === 'refused') return outcome;
  const { entry } = outcome;
  return { kind: outcome.kind, entry: { ...entry, sequence: Number(entry.sequence), amount: Number(entry.amount), balance: Number(entry.balance) } };
}

function outbox(events: WebhookEventRow[]): OutboxWrite {
  return { events, deliveryOf: (row, endpointId) => delivery(row, endpointId) };
}

describe.each(await storeKinds())('the store dialect (%s)', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await openTestStore(kind));
    const endpoint = { url: 'https://example.com/hook', secret_sealed: 'x', disabled_reason: null, created_at: NOW, updated_at: NOW };
    await store.db
      .insertInto('webhook_endpoints')
      .values([
        { ...endpoint, id: 'endpoint_on', project: 'project_a', enabled: 1 },
        { ...endpoint, id: 'endpoint_off', project: 'project_a', enabled: 0 },
        { ...endpoint, id: 'endpoint_b', project: 'project_b', enabled: 1 },
      ])
      .execute();
  });
  afterAll(async () => close?.());

  describe('isUniqueViolation', () => {
    it("recognises the driver's primary-key and unique-index violations, and nothing else", async () => {
      const credit = { id: 'credit_unique', project: 'project_a', name: 'n', description: '', allow_negative_balance: 0, created_at: NOW };
      await store.db.insertInto('credits').values(credit).execute();
      const duplicateKey = await store.db
        .insertInto('credits')
        .values(credit)
        .execute()
        .catch((error: unknown) => error);
      expect(isUniqueViolation(duplicateKey)).toBe(true);
      const entry = { credit: 'c', project: 'p', human: 'h', sequence: 1, amount: 1, balance: 1, idempotency_key: 'k', created_at: NOW };
      await store.db
        .insertInto('credit_ledger_entries')
        .values({ ...entry, id: 'entry_1' })
        .execute();
      const duplicateIndex = await store.db
        .insertInto('credit_ledger_entries')
        .values({ ...entry, id: 'entry_2' })
        .execute()
        .catch((error: unknown) => error);
      expect(isUniqueViolation(duplicateIndex)).toBe(true);
      const notNull = await store.db
        .insertInto('credits')
        .values({ ...credit, id: 'credit_null', name: null as unknown as string })
        .execute()
        .catch((error: unknown) => error);
      expect(notNull).toBeInstanceOf(Error);
      expect(isUniqueViolation(notNull)).toBe(false);
      for (const other of [new Error('x'), null, undefined, 'SQLITE_CONSTRAINT_UNIQUE', { code: 23505 }]) expect(isUniqueViolation(other)).toBe(false);
    });
  });

  describe('appendLedgerEntry', () => {
    it('writes entries in sequence with running balances; a used key answers its entry and writes nothing', async () => {
      const human = newId('human');
      const first = await appendLedgerEntry(store, append({ human, amount: 10, idempotencyKey: 'k1' }));
      const second = await appendLedgerEntry(store, append({ human, amount: -4, idempotencyKey: 'k2' }));
      expect(numeric(first)).toMatchObject({ kind: 'written', entry: { sequence: 1, amount: 10, balance: 10, idempotency_key: 'k1' } });
      expect(numeric(second)).toMatchObject({ kind: 'written', entry: { sequence: 2, amount: -4, balance: 6 } });
      const replay = await appendLedgerEntry(store, append({ human, amount: 99, idempotencyKey: 'k1' }));
      expect(replay.kind).toBe('replayed');
      expect(replay.kind === 'replayed' && { id: replay.entry.id, amount: Number(replay.entry.amount) }).toEqual({
        id: first.kind === 'written' && first.entry.id,
        amount: 10,
      });
      expect(await balanceOf(human)).toEqual({ balance: 6, entries: 2, sum: 6 });
    });

    it('refuses an overdraft (without allowNegative) and a balance past 2^53 - 1, writing nothing', async () => {
      const human = newId('human');
      expect(await appendLedgerEntry(store, append({ human, amount: -1 }))).toEqual({ kind: 'refused', balance: 0 });
      await appendLedgerEntry(store, append({ human, amount: 5 }));
      expect(await appendLedgerEntry(store, append({ human, amount: -6 }))).toEqual({ kind: 'refused', balance: 5 });
      expect(await appendLedgerEntry(store, append({ human, amount: Number.MAX_SAFE_INTEGER }))).toEqual({ kind: 'refused', balance: 5 });
      expect(numeric(await appendLedgerEntry(store, append({ human, amount: -6, allowNegative: true })))).toMatchObject({
        kind: 'written',
        entry: { balance: -1 },
      });
      expect(await balanceOf(human)).toEqual({ balance: -1, entries: 2, sum: -1 });
    });

    it('never overdraws under concurrent debits: the check and the write are one step', async () => {
      const human = newId('human');
      await appendLedgerEntry(store, append({ human, amount: 10 }));
      const outcomes = await Promise.all(Array.from({ length: 25 }, () => appendLedgerEntry(store, append({ human, amount: -1 }))));
      expect(outcomes.filter((outcome) => outcome.kind === 'written')).toHaveLength(10);
      expect(outcomes.filter((outcome) => outcome.kind === 'refused')).toHaveLength(15);
      expect(await balanceOf(human)).toEqual({ balance: 0, entries: 11, sum: 0 });
    });

    it('writes one entry for concurrent appends under one key', async () => {
      const human = newId('human');
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => appendLedgerEntry(store, append({ human, amount: 3, idempotencyKey: 'same' }))));
      expect(outcomes.filter((outcome) => outcome.kind === 'written')).toHaveLength(1);
      expect(new Set(outcomes.map((outcome) => outcome.kind !== 'refused' && outcome.entry.id)).size).toBe(1);
      expect(await balanceOf(human)).toEqual({ balance: 3, entries: 1, sum: 3 });
    });
  });

  describe('usage writes', () => {
    it('inserts records, adds to counters, deletes settled reservations and writes the outbox, in a transaction of its own', async () => {
      const human = newId('human');
      await store.db
        .insertInto('usage_reservations')
        .values({ id: 'reservation_1', project: 'project_a', human, type: 'token_cnt', amount: 50, expires_at: NOW, created_at: NOW })
        .execute();
      const record = (value: number) => ({ id: newId('usage'), project: 'project_a', human, type: 'token_cnt', value, metadata: '{}', created_at: NOW });
      const events = [event('project_a'), event('project_a')];
      await commitUsage(store, {
        settled: ['reservation_1'],
        records: [record(2), record(3)],
        counters: [{ project: 'project_a', human, type: 'token_cnt', used: 5, updated_at: NOW }],
        outbox: outbox(events),
      });
      await commitUsage(store, {
        settled: [],
        records: [record(7)],
        counters: [{ project: 'project_a', human, type: 'token_cnt', used: 7, updated_at: NOW }],
        outbox: outbox([event('project_b')]),
      });
      const counter = await store.db.selectFrom('usage_counters').select('used').where('human', '=', human).executeTakeFirstOrThrow();
      expect(Number(counter.used)).toBe(12);
      expect(await store.db.selectFrom('usage_records').select('id').where('human', '=', human).execute()).toHaveLength(3);
      expect(await store.db.selectFrom('usage_reservations').select('id').where('id', '=', 'reservation_1').execute()).toEqual([]);
      // One delivery per event to each enabled endpoint of its project: none to the disabled one.
      const deliveries = await store.db
        .selectFrom('webhook_deliveries')
        .select(['event_id', 'endpoint_id'])
        .where(
          'event_id',
          'in',
          events.map((row) => row.id),
        )
        .execute();
      expect(deliveries.map((row) => row.endpoint_id)).toEqual(['endpoint_on', 'endpoint_on']);
    });

    it("joins the caller's transaction: a rollback leaves nothing", async () => {
      const human = newId('human');
      const events = [event('project_a')];
      await expect(
        store.transaction(async (trx) => {
          await writeUsage(trx, {
            settled: [],
            records: [{ id: newId('usage'), project: 'project_a', human, type: 'token_cnt', value: 1, metadata: '{}', created_at: NOW }],
            counters: [{ project: 'project_a', human, type: 'token_cnt', used: 1, updated_at: NOW }],
            outbox: outbox(events),
          });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await store.db.selectFrom('usage_records').select('id').where('human', '=', human).execute()).toEqual([]);
      expect(await store.db.selectFrom('usage_counters').select('used').where('human', '=', human).execute()).toEqual([]);
      expect(await store.db.selectFrom('webhook_events').select('id').where('id', '=', events[0]!.id).execute()).toEqual([]);
    });
  });

  describe('claimDueDeliveries', () => {
    it('claims due deliveries of enabled endpoints once, oldest first, under a lease; concurrent claims never share a row', async () => {
      const project = newId('project');
      const endpoint = { url: 'https://example.com/hook', secret_sealed: 'x', disabled_reason: null, created_at: NOW, updated_at: NOW, project };
      await store.db
        .insertInto('webhook_endpoints')
        .values([
          { ...endpoint, id: `${project}_on`, enabled: 1 },
          { ...endpoint, id: `${project}_off`, enabled: 0 },
        ])
        .execute();
      const source = event(project);
      await store.db.insertInto('webhook_events').values(source).execute();
      const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
      const due = Array.from({ length: 20 }, (_, index) => delivery(source, `${project}_on`, { next_attempt_at: at(20 - index) }));
      const rows = [
        ...due,
        delivery(source, `${project}_off`, { next_attempt_at: at(0) }),
        delivery(source, `${project}_on`, { next_attempt_at: at(59) }),
        delivery(source, `${project}_on`, { status: 'delivering', lease_until: at(59), next_attempt_at: at(0) }),
        delivery(source, `${project}_on`, { status: 'delivering', lease_until: at(1), next_attempt_at: at(0), attempts: 2 }),
      ];
      await store.db.insertInto('webhook_deliveries').values(rows).execute();
      const claim = (owner: string) => claimDueDeliveries(store, { now: at(30), leaseOwner: owner, leaseUntil: at(45), limit: 4 });
      const claims = await Promise.all(Array.from({ length: 8 }, (_, index) => claim(`owner_${index}`)));
      const claimed = claims.flat().filter((row) => row.project === project);
      expect(claimed.map((row) => row.id).sort()).toEqual([...due.map((row) => row.id), rows.at(-1)!.id].sort());
      expect(new Set(claimed.map((row) => row.id)).size).toBe(claimed.length);
      expect(claimed.every((row) => row.status === 'delivering' && row.lease_until === at(45) && row.updated_at === at(30))).toBe(true);
      expect(claimed.find((row) => row.id === rows.at(-1)!.id)?.attempts).toBe(3);
      expect(claims.every((rowsOfClaim) => rowsOfClaim.length <= 4)).toBe(true);
      expect(await claim('late')).toEqual([]);
    });

    it('takes the oldest due first', async () => {
      const project = newId('project');
      await store.db
        .insertInto('webhook_endpoints')
        .values({
          id: `${project}_on`,
          project,
          url: 'https://example.com/hook',
          secret_sealed: 'x',
          enabled: 1,
          disabled_reason: null,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
      const source = event(project);
      await store.db.insertInto('webhook_events').values(source).execute();
      const rows = [3, 1, 4, 2, 5].map((minute) => delivery(source, `${project}_on`, { next_attempt_at: `2025-12-31T23:0${minute}:00.000Z` }));
      await store.db.insertInto('webhook_deliveries').values(rows).execute();
      const claimed = await claimDueDeliveries(store, { now: '2025-12-31T23:59:00.000Z', leaseOwner: 'owner', leaseUntil: NOW, limit: 2 });
      expect(claimed.map((row) => row.next_attempt_at).sort()).toEqual(['2025-12-31T23:01:00.000Z', '2025-12-31T23:02:00.000Z']);
    });
  });

  describe('locks', () => {
    it('lockRows makes concurrent read-modify-writes of a row apply one after the other', async () => {
      const human = newId('human');
      await store.db.insertInto('usage_counters').values({ project: 'project_a', human, type: 'lock_test', used: 0, updated_at: NOW }).execute();
      const counter = () => store.db.selectFrom('usage_counters').where('human', '=', human).where('type', '=', 'lock_test');
      await Promise.all(
        Array.from({ length: 20 }, () =>
          store.transaction(async (trx) => {
            await lockRows(store, trx.selectFrom('usage_counters').select('used').where('human', '=', human).where('type', '=', 'lock_test'));
            const { used } = await trx
              .selectFrom('usage_counters')
              .select('used')
              .where('human', '=', human)
              .where('type', '=', 'lock_test')
              .executeTakeFirstOrThrow();
            await new Promise((resolve) => setTimeout(resolve, 1));
            await trx
              .updateTable('usage_counters')
              .set({ used: Number(used) + 1 })
              .where('human', '=', human)
              .where('type', '=', 'lock_test')
              .execute();
          }),
        ),
      );
      expect(Number((await counter().select('used').executeTakeFirstOrThrow()).used)).toBe(20);
    });

    it('serialiseOn keeps a rule no row can lock ("at most 3 per human") under concurrent transactions', async () => {
      const human = newId('human');
      await Promise.all(
        Array.from({ length: 12 }, () =>
          store.transaction(async (trx) => {
            await serialiseOn(store, trx, `palaver:test-quota:${human}`);
            const { count } = await trx
              .selectFrom('usage_records')
              .select((eb) => eb.fn.countAll<number | string>().as('count'))
              .where('human', '=', human)
              .executeTakeFirstOrThrow();
            await new Promise((resolve) => setTimeout(resolve, 1));
            if (Number(count) < 3)
              await trx
                .insertInto('usage_records')
                .values({ id: newId('usage'), project: 'project_a', human, type: 'quota', value: 1, metadata: '{}', created_at: NOW })
                .execute();
          }),
        ),
      );
      expect(await store.db.selectFrom('usage_records').select('id').where('human', '=', human).execute()).toHaveLength(3);
    });
  });

  async function balanceOf(human: string): Promise<{ balance: number; entries: number; sum: number }> {
    const row = await store.db.selectFrom('credit_balances').select('balance').where('credit', '=', 'credit_1').where('human', '=', human).executeTakeFirst();
    const totals = await store.db
      .selectFrom('credit_ledger_entries')
      .select((eb) => [eb.fn.sum<number | string | null>('amount').as('sum'), eb.fn.countAll<number | string>().as('entries')])
      .where('credit', '=', 'credit_1')
      .where('human', '=', human)
      .executeTakeFirstOrThrow();
    return { balance: Number(row?.balance ?? 0), entries: Number(totals.entries), sum: Number(totals.sum ?? 0) };
  }
});
