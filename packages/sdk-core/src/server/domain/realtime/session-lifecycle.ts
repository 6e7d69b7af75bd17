import type { Transaction } from 'kysely';
import type { RealtimeSession, RealtimeSessionState } from '../../../contract/realtime.js';
import type { WebhookMessage } from '../../../contract/webhooks.js';
import { nowIso } from '../../store/ids.js';
import type { Database } from '../../store/tables.js';
import type { Principal } from '../../kernel/principal.js';
import type { AgentStopReason } from '../../kernel/ports/agent-session-host.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import { toRealtimeSession, type RealtimeSessionRepository, type StoredRealtimeSession } from './realtime-session-repository.js';

/** The moves a session's state can make: forward only, `ended` is final. */
const NEXT_STATES: Record<RealtimeSessionState, readonly RealtimeSessionState[]> = {
  not_started: ['in_progress', 'ended'],
  in_progress: ['ended'],
  ended: [],
};

export interface StateChange {
  previous: RealtimeSession;
  current: RealtimeSession;
  /** False when the session already was in (or past) the target state: nothing was written. */
  changed: boolean;
}

/**
 * The session's state machine and its events: every state change is written together with its
 * `realtime_session.state_changed` event (and any other event of the change) in one transaction, so an
 * event exists if and only if its change was committed.
 *
 * @example
 * await lifecycle.moveTo({ project }, session.id, 'ended', { stopReason: 'time_limit_exceeded', events: [{ type: 'realtime_session.time_limit_exceeded', payload: { session: session.id } }] });
 */
export class SessionLifecycle {
  constructor(
    private readonly sessions: RealtimeSessionRepository,
    private readonly webhooks: Pick<WebhookService, 'enqueue'>,
  ) {}

  /** Announces a new session (`state_changed` without a previous session), inside its insert's transaction. */
  async announceCreated(transaction: Transaction<Database>, session: StoredRealtimeSession): Promise<void> {
    const current = toRealtimeSession(session);
    await this.webhooks.enqueue(transaction, current.project, { type: 'realtime_session.state_changed', payload: { current_realtime_session: current } });
  }

  /**
   * Moves the session to `target` when that is a forward move from its current state; `events` are
   * enqueued with the change (not when nothing changes), and an end records `stopReason`. `alongside` runs in
   * the change's transaction (e.g. releasing the session's lease). Undefined when the session is not visible.
   */
  async moveTo(
    who: { principal: Principal } | { project: string },
    id: string,
    target: RealtimeSessionState,
    options: { events?: readonly WebhookMessage[]; stopReason?: AgentStopReason; alongside?: (transaction: Transaction<Database>) => Promise<unknown> } = {},
  ): Promise<StateChange | undefined> {
    const { events = [], stopReason } = options;
    const result = await this.sessions.update(who, id, async (stored, transaction) => {
      if (!NEXT_STATES[stored.data.state].includes(target)) return undefined;
      const ended = target === 'ended' ? { ended_at: nowIso(), ...(stopReason !== undefined ? { stop_reason: stopReason } : {}) } : {};
      const next = { ...stored.data, state: target, ...ended };
      await options.alongside?.(transaction);
      const previous = toRealtimeSession(stored);
      const current = toRealtimeSession({ ...stored, data: next });
      await this.webhooks.enqueue(transaction, previous.project, {
        type: 'realtime_session.state_changed',
        payload: { previous_realtime_session: previous, current_realtime_session: current },
      });
      for (const event of events) await this.webhooks.enqueue(transaction, previous.project, event);
      return next;
    });
    if (!result) return undefined;
    return { previous: toRealtimeSession(result.previous), current: toRealtimeSession(result.current), changed: result.previous !== result.current };
  }
}
