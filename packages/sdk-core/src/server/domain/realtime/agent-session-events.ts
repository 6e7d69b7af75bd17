import type { Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { ContextMessageCreateParams } from '../../../contract/contexts.js';
import type { AgentSessionEvents, AgentStopReason } from '../../kernel/ports/agent-session-host.js';
import type { Store } from '../../store/database.js';
import type { Database } from '../../store/tables.js';
import type { Principal } from '../../kernel/principal.js';
import type { ContextService } from '../contexts/context-service.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import type { AgentControl } from './agent-control.js';
import type { RealtimeSessionRepository } from './realtime-session-repository.js';
import type { SessionLifecycle } from './session-lifecycle.js';

export interface AgentSessionEventDependencies {
  store: Store;
  sessions: RealtimeSessionRepository;
  lifecycle: SessionLifecycle;
  contexts: Pick<ContextService, 'appendMessage'>;
  webhooks: Pick<WebhookService, 'enqueue'>;
  control: AgentControl;
  logger: Logger;
  /** Drops the session's lease, in the transaction that ends it. */
  releaseLease?: (transaction: Transaction<Database>) => Promise<void>;
}

/**
 * What the agent of one session reports back, as the session service handles it. Each method returns
 * once its effect is durable. The configuration is read fresh on every message, because an update may
 * have changed `save_messages` or the context (possibly through another instance).
 *
 * @example
 * const handle = await host.start({ session, principal, humanIdentity }, agentSessionEvents(dependencies, session, principal));
 */
export function agentSessionEvents(
  dependencies: AgentSessionEventDependencies,
  session: { id: string; project: string },
  principal: Principal,
): AgentSessionEvents {
  const { id, project } = session;
  return {
    async messageCommitted(message: ContextMessageCreateParams): Promise<void> {
      const stored = await dependencies.sessions.find(principal, id);
      if (!stored || !stored.data.config.general.save_messages) return;
      // The message and its webhook event commit in one transaction: an event exists if and only if the message does.
      await dependencies.contexts.appendMessage(principal, stored.data.config.generative.context.id, message, {
        realtimeSession: id,
        alongside: (transaction, saved) =>
          dependencies.webhooks.enqueue(transaction, project, {
            type: 'realtime_session.message_committed',
            payload: { message: saved, session: id, realtime_session_id: id },
          }),
      });
    },

    async stopped(reason: AgentStopReason, detail?: string): Promise<void> {
      dependencies.logger[reason === 'failed' ? 'warn' : 'info']({ session: id, reason, detail }, 'realtime session agent stopped');
      try {
        await dependencies.lifecycle.moveTo({ project }, id, 'ended', {
          stopReason: reason,
          events: reason === 'time_limit_exceeded' ? [{ type: 'realtime_session.time_limit_exceeded', payload: { session: id } }] : [],
          ...(dependencies.releaseLease ? { alongside: dependencies.releaseLease } : {}),
        });
      } finally {
        await dependencies.control.release(id);
      }
    },
  };
}
