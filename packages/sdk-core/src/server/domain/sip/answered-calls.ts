import type { Store } from '../../store/database.js';
import { serialiseOn } from '../../store/dialect/index.js';
import { APP_RUN_KIND } from '../apps/app-run-service.js';
import { REALTIME_SESSION_KIND } from '../realtime/realtime-session-repository.js';

/** The document kind that records which call a room's platform answer is being started for. */
const KIND = 'sip_call_answer';
/** A claim older than this lost its instance while the answer was starting (a start takes seconds): it is swept. */
export const STALE_CLAIM_MS = 10 * 60_000;
/** Claims sweep stale ones at most this often (per instance). */
const SWEEP_INTERVAL_MS = 60_000;

/** What answered a room's call, as recorded when the answer was claimed. */
export interface AnsweredCallRecord {
  ruleId: string;
  participantIdentity: string;
  /** LiveKit SIP's `sip.callID` of the call. */
  callId: string;
  answer: 'realtime_session' | 'app_run';
}

/**
 * The rooms whose platform answer is being started, one record per room in the store's documents (kind
 * `sip_call_answer`, id = the room) while it starts: claimed under the project's SIP lock (`serialiseOn`, the lock trunk
 * and rule changes take), so a webhook delivered twice, or to two instances at once, starts one answer. Once the answer
 * started, its realtime session or app run (whose id is the room's) is the record, for the call's life and after: the
 * claim is removed ({@link settle}), and a claim finds the room answered when either is there. Claims left by an
 * instance that died mid-start are swept after {@link STALE_CLAIM_MS} (one idempotent delete, any instance).
 *
 * @example
 * if (await answered.claim('project_dev', 'call_+15550100_x7Qa', record)) await start(); // else already answered
 * await answered.settle('call_+15550100_x7Qa');
 */
export class AnsweredCalls {
  private lastSweep = 0;

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records that `room` is being answered; false when it is, or was (its session or run exists), by any instance. */
  async claim(project: string, room: string, record: AnsweredCallRecord): Promise<boolean> {
    if (this.now() - this.lastSweep >= SWEEP_INTERVAL_MS) await this.sweep();
    return this.store.transaction(async (transaction) => {
      await serialiseOn(this.store, transaction, `palaver:sip:${project}`);
      const existing = await transaction
        .selectFrom('documents')
        .select('id')
        .where('kind', 'in', [KIND, REALTIME_SESSION_KIND, APP_RUN_KIND])
        .where('id', '=', room)
        .executeTakeFirst();
      if (existing) return false;
      const at = new Date().toISOString();
      await transaction
        .insertInto('documents')
        .values({
          kind: KIND,
          id: room,
          project,
          human: null,
          parent: null,
          name: null,
          tags: null,
          data: JSON.stringify(record),
          created_at: at,
          updated_at: at,
          deleted_at: null,
        })
        .execute();
      return true;
    });
  }

  /**
   * Removes the claim of a room whose answer started: its session or run, made under the room's id before this, now
   * stands for the answer (a later delivery of the webhook finds it, whether the call is live or ended).
   */
  async settle(room: string): Promise<void> {
    await this.store.db.deleteFrom('documents').where('kind', '=', KIND).where('id', '=', room).execute();
  }

  /**
   * Forgets a claim whose answer could not start, so a retried webhook may start it (unless its session or run was
   * made before it failed: the claim then finds that).
   */
  release(room: string): Promise<void> {
    return this.settle(room);
  }

  /** The number of claims recorded now (answers starting, or left by an instance that died). */
  async pending(): Promise<number> {
    const row = await this.store.db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('kind', '=', KIND)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Deletes claims older than {@link STALE_CLAIM_MS}; answers how many. Safe on every instance at once. */
  async sweep(): Promise<number> {
    this.lastSweep = this.now();
    const cutoff = new Date(this.lastSweep - STALE_CLAIM_MS).toISOString();
    const result = await this.store.db.deleteFrom('documents').where('kind', '=', KIND).where('created_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
