import { z } from 'zod';
import { CreateAppRunRequest } from './app-runs.js';
import { RealtimeSessionConfigCreate } from './realtime.js';

/**
 * What answers the calls a LiveKit SIP dispatch rule places, as the platform reads it from the rule's `metadata`
 * (a JSON object with a `palaver` key; Palaver extension of LiveKit's SIP API, decision 0109). Either a realtime
 * session (`realtime`: the configuration `POST /v1/realtime/start` takes) or an app run (`app_run`: what
 * `POST /v1/app/run` takes, without `run_id`), and whose conversational seconds the call is (`human`; default the
 * caller's number). Without it, the rule's `roomConfig.agents` (LiveKit Agents workers) answer, as in LiveKit.
 */
export const SipCallAnswer = z
  .object({
    realtime: RealtimeSessionConfigCreate.optional().describe("A realtime session with this configuration answers each call (its room is the call's room)."),
    app_run: CreateAppRunRequest.omit({ run_id: true }).optional().describe("An app run answers each call (its room is the call's room)."),
    human: z.string().min(1).max(200).optional().describe("The human the call's seconds are metered to; default the caller's number."),
  })
  .strict()
  .refine((answer) => !(answer.realtime && answer.app_run), { message: 'give `realtime` or `app_run`, not both' })
  .meta({ id: 'SipCallAnswer' });
export type SipCallAnswer = z.output<typeof SipCallAnswer>;

/** A dispatch rule's `metadata` as the platform reads it: any JSON object; only its `palaver` key is the platform's. */
export const SipRuleMetadata = z.looseObject({ palaver: SipCallAnswer.optional() });

/**
 * Where a LiveKit deployment posts its webhooks to the platform (LiveKit's `webhook.urls`), with `LIVEKIT_URL` set:
 * signed with the deployment's key pair (`Authorization`: a JWT whose `sha256` claim is the body's), LiveKit's
 * `WebhookEvent` JSON as the body. A SIP caller joining a room its dispatch rule's `palaver` answer serves starts that
 * answer in the room (decision 0109).
 */
export const LIVEKIT_WEBHOOK_PATH = '/livekit/webhook';

/** What the platform did with one LiveKit webhook (LiveKit reads only the status; this is for people and logs). */
export const LiveKitWebhookOutcome = z
  .object({
    outcome: z
      .enum(['answered', 'already_answered', 'ignored'])
      .describe("`answered`: the rule's answer started in the room; `already_answered`: a delivery before this one started it; `ignored`: nothing to start."),
    reason: z.string().optional().describe('Why nothing was started (`ignored`).'),
    room: z.string().optional().describe("The call's room."),
    session_id: z.string().optional().describe('The realtime session that answers (its id is the room).'),
    run_id: z.string().optional().describe('The app run that answers (its id is the room).'),
  })
  .meta({ id: 'LiveKitWebhookOutcome' });
export type LiveKitWebhookOutcome = z.output<typeof LiveKitWebhookOutcome>;
