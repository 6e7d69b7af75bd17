import { z } from 'zod';
import { FreeObject } from './common.js';
import { ContextMessage } from './contexts.js';
import { RealtimeSession } from './realtime.js';
import { Usage } from './usage.js';

/** `usage.tracked`: the Usage fields plus the deprecated `human_id` alias and `extra`. */
export const UsageTrackedPayload = Usage.extend({
  human_id: z.string().optional().meta({ deprecated: true, description: 'Use `human`.' }),
  extra: FreeObject.optional(),
}).meta({ id: 'UsageTrackedPayload' });

export const RealtimeSessionStateChangedPayload = z
  .object({
    current_realtime_session: z.lazy(() => RealtimeSession),
    previous_realtime_session: z.lazy(() => RealtimeSession).optional(),
  })
  .meta({ id: 'RealtimeSessionStateChangedPayload' });

export const RealtimeSessionMessageCommittedPayload = z
  .object({
    message: z.lazy(() => ContextMessage),
    session: z.string().describe('Realtime session id.'),
    realtime_session_id: z.string().optional(),
  })
  .meta({ id: 'RealtimeSessionMessageCommittedPayload' });

export const RealtimeSessionTimeLimitExceededPayload = z
  .object({ session: z.string().describe('Realtime session id.') })
  .meta({ id: 'RealtimeSessionTimeLimitExceededPayload' });

/**
 * The body of every webhook delivery (spec part 6): `{type, payload}`, tagged by `type`.
 *
 * @example
 * const message = WebhookMessage.parse(JSON.parse(rawBody));
 * if (message.type === 'usage.tracked') bill(message.payload.human, message.payload.value);
 */
export const WebhookMessage = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('usage.tracked'), payload: UsageTrackedPayload }),
    z.object({ type: z.literal('realtime_session.state_changed'), payload: RealtimeSessionStateChangedPayload }),
    z.object({ type: z.literal('realtime_session.message_committed'), payload: RealtimeSessionMessageCommittedPayload }),
    z.object({ type: z.literal('realtime_session.time_limit_exceeded'), payload: RealtimeSessionTimeLimitExceededPayload }),
  ])
  .meta({ id: 'WebhookMessage' });
export type WebhookMessage = z.infer<typeof WebhookMessage>;
export type WebhookEventType = WebhookMessage['type'];
