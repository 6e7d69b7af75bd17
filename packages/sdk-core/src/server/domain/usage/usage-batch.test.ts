import { describe, expect, it } from 'vitest';
import { WebhookMessage } from '../../../contract/webhooks.js';
import { usageBatch, type PendingRecord } from './usage-batch.js';

const record = (
  id: string,
  human: string | null,
  value: number,
  reservationId: string | null = null,
  metadata: Record<string, unknown> = {},
): PendingRecord => ({
  entry: { id, project: 'project_1', human, type: 'token_cnt', value, metadata, createdAt: `2026-11-25T00:00:0${id.slice(-1)}.000Z` },
  reservationId,
});

describe('usageBatch', () => {
  it('writes each record, sums counters per human and type, settles reservations, and makes one event per record in order', () => {
    const batch = usageBatch([record('usage_1', 'ada', 10, 'reservation_1', { model: 'm' }), record('usage_2', null, 5), record('usage_3', 'ada', 7)]);
    expect(batch.settled).toEqual(['reservation_1']);
    expect(batch.records.map((row) => [row.id, row.human, row.value, row.metadata])).toEqual([
      ['usage_1', 'ada', 10, '{"model":"m"}'],
      ['usage_2', null, 5, '{}'],
      ['usage_3', 'ada', 7, '{}'],
    ]);
    expect(batch.counters).toEqual([{ project: 'project_1', human: 'ada', type: 'token_cnt', used: 17, updated_at: '2026-11-25T00:00:03.000Z' }]);
    expect(batch.events.map(({ event }) => event.payload)).toMatchObject([
      { id: 'usage_1', human: 'ada', human_id: 'ada' },
      { id: 'usage_2' },
      { id: 'usage_3' },
    ]);
    expect(batch.events[1]!.event.payload).not.toHaveProperty('human');
  });

  it("builds events already in the contract's shape: parsing them changes nothing (the outbox queues them unparsed)", () => {
    const batch = usageBatch([record('usage_1', 'ada', 10, null, { model: 'm', nested: { a: [1, 2] } }), record('usage_2', null, 0)]);
    for (const { event } of batch.events) expect(WebhookMessage.parse(event)).toEqual(event);
  });
});
