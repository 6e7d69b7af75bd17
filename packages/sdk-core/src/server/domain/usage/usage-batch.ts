import type { Usage, UsageType } from '../../../contract/usage.js';
import type { WebhookMessage } from '../../../contract/webhooks.js';
import type { UsageCounterRow, UsageRecordRow, UsageReservationRow } from '../../store/tables.js';

/** One usage record to write. */
export interface UsageEntry {
  id: string;
  project: string;
  human: string | null;
  type: UsageType;
  value: number;
  metadata: Record<string, unknown>;
  createdAt: string;
}

/** A record waiting for its group commit, with the reservation it settles. */
export interface PendingRecord {
  entry: UsageEntry;
  reservationId: string | null;
  /**
   * Not a record: what the reservation's request used so far (a streamed answer metered as it goes), written on the
   * reservation (created with nothing held when there is none yet); recorded only if its instance dies.
   */
  progress?: { expiresAt: string; instance: string | null };
}

/** What one batch of records writes, whatever the store: rows, summed counters, settled reservations, events. */
export interface UsageBatch {
  settled: string[];
  /** What reservations' requests used so far (the latest per reservation), as reservation rows to upsert. */
  progressed: UsageReservationRow[];
  records: UsageRecordRow[];
  /** One per (project, human, type), values summed; humanless records count in no counter. */
  counters: UsageCounterRow[];
  usages: Usage[];
  events: Array<{ project: string; event: WebhookMessage }>;
}

/**
 * The writes of a batch of usage records (see UsageService): the records, the humans' counters (one upsert per human
 * and type), the reservations they settle, and one `usage.tracked` event per record, in the records' order.
 */
export function usageBatch(items: readonly PendingRecord[]): UsageBatch {
  const settled: string[] = [];
  const progressed = new Map<string, UsageReservationRow>();
  const records: UsageRecordRow[] = [];
  const counters = new Map<string, UsageCounterRow>();
  const usages: Usage[] = [];
  const events: UsageBatch['events'] = [];
  for (const { entry, reservationId, progress } of items) {
    if (progress) {
      // Answered like a record (the group commit answers every item) but only written on the reservation.
      if (reservationId && entry.human !== null) {
        progressed.set(reservationId, {
          id: reservationId,
          project: entry.project,
          human: entry.human,
          type: entry.type,
          amount: 0,
          expires_at: progress.expiresAt,
          created_at: entry.createdAt,
          instance: progress.instance,
          used: entry.value,
          metadata: JSON.stringify(entry.metadata),
        });
      }
      usages.push({
        id: entry.id,
        type: entry.type,
        value: entry.value,
        project: entry.project,
        metadata: entry.metadata,
        ...(entry.human !== null ? { human: entry.human } : {}),
      });
      continue;
    }
    if (reservationId) settled.push(reservationId);
    records.push({
      id: entry.id,
      project: entry.project,
      human: entry.human,
      type: entry.type,
      value: entry.value,
      metadata: JSON.stringify(entry.metadata),
      created_at: entry.createdAt,
    });
    if (entry.human !== null) {
      const key = `${entry.project}\u0000${entry.human}\u0000${entry.type}`;
      const counter = counters.get(key);
      if (counter) {
        counter.used += entry.value;
        if (entry.createdAt > counter.updated_at) counter.updated_at = entry.createdAt;
      } else {
        counters.set(key, { project: entry.project, human: entry.human, type: entry.type, used: entry.value, updated_at: entry.createdAt });
      }
    }
    const usage: Usage = {
      id: entry.id,
      type: entry.type,
      value: entry.value,
      project: entry.project,
      metadata: entry.metadata,
      ...(entry.human !== null ? { human: entry.human } : {}),
    };
    usages.push(usage);
    events.push({
      project: usage.project,
      event: {
        type: 'usage.tracked',
        payload: { ...usage, ...(usage.human !== undefined ? { human_id: usage.human } : {}), extra: { created_at: entry.createdAt } },
      },
    });
  }
  return { settled, progressed: [...progressed.values()], records, counters: [...counters.values()], usages, events };
}
