import type { Store } from '../../store/database.js';
import { serialiseOn } from '../../store/dialect/index.js';
import { APP_RUN_KIND } from '../apps/app-run-service.js';
import { REALTIME_SESSION_KIND } from '../realtime/realtime-session-repository.js';

/** The document kind that records which call a room's platform answer was started for. */
const KIND = 'sip_call_answer';

/** What answered a room's call, as recorded when the answer was claimed. */
export interface AnsweredCallRecord {
  ruleId: string;
  participantIdentity: string;
  /** LiveKit SIP's `sip.callID` of the call. */
  callId: string;
  answer: 'realtime_session' | 'app_run';
}

/**
 * The rooms whose platform answer has been started, one record per room in the store's documents (kind
 * `sip_call_answer`, id = the room): claimed under the project's SIP lock (`serialiseOn`, the lock trunk and rule
 * changes take), so a webhook delivered twice, or to two instances at once, starts one answer.
 *
 * @example
 * if (await answered.claim('project_dev', 'call_+15550100_x7Qa', record)) await start(); // else already answered
 */
export class AnsweredCalls {
  constructor(private readonly store: Store) {}

  /** Records that `room` is being answered; false when it already was (by any instance). */
  claim(project: string, room: string, record: AnsweredCallRecord): Promise<boolean> {
    return this.store.transaction(async (transaction) => {
      await serialiseOn(this.store, transaction, `palaver:sip:${project}`);
      const existing = await transaction.selectFrom('documents').select('id').where('kind', '=', KIND).where('id', '=', room).executeTakeFirst();
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
   * Forgets a claim whose answer could not start, so a retried webhook may start it, unless the answer's session or
   * run was made before it failed (its id is the room's: a retry could not make it again).
   */
  async release(room: string): Promise<void> {
    const made = await this.store.db
      .selectFrom('documents')
      .select('id')
      .where('kind', 'in', [REALTIME_SESSION_KIND, APP_RUN_KIND])
      .where('id', '=', room)
      .executeTakeFirst();
    if (made) return;
    await this.store.db.deleteFrom('documents').where('kind', '=', KIND).where('id', '=', room).execute();
  }
}
