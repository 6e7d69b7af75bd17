import { z } from 'zod';
import { defineRoute } from './define-route.js';

/** The prefix of an ephemeral key: a usage token the realtime socket takes as OpenAI's clients send it (`ek_…`). */
export const EPHEMERAL_KEY_PREFIX = 'ek_';

/**
 * `POST /v1/realtime/client_secrets`: an ephemeral key for a browser to open `/v1/realtime` with, as OpenAI's. Here it
 * is a usage token of the human named by `x-human-id` (metered and limited as that human), valid `expires_after.seconds`.
 * The session is configured once connected (`session.update`): only `type` and `model` (checked) are taken here.
 */
export const RealtimeClientSecretRequest = z
  .strictObject({
    expires_after: z
      .strictObject({
        anchor: z.literal('created_at').optional(),
        seconds: z.number().int().min(10).max(7200).default(600).describe('Lifetime of the key, 10 s to 2 h (default 10 minutes).'),
      })
      .optional(),
    session: z
      .strictObject({
        type: z.literal('realtime'),
        model: z.string().min(1).max(200).optional().describe('An LLM id of the platform; the socket names it again in `?model=`.'),
      })
      .optional()
      .describe('Other session fields are set with `session.update` once connected.'),
  })
  .meta({ id: 'RealtimeClientSecretRequest' });

export const RealtimeClientSecret = z
  .object({
    value: z.string().describe('`ek_` and a usage token: the `apiKey` of `OpenAIRealtimeWS` or `RealtimeSession` in a browser.'),
    expires_at: z.number().int().describe('Unix seconds.'),
    session: z.object({ type: z.literal('realtime'), object: z.literal('realtime.session'), model: z.string().nullable() }),
  })
  .meta({ id: 'RealtimeClientSecret' });
export type RealtimeClientSecret = z.infer<typeof RealtimeClientSecret>;

export const openAiRealtimeRoutes = {
  createClientSecret: defineRoute({
    operationId: 'openaiRealtime.createClientSecret',
    method: 'POST',
    path: '/v1/realtime/client_secrets',
    auth: 'K',
    tag: 'OpenAI Realtime',
    summary: "An ephemeral key for OpenAI's Realtime API on /v1/realtime (a usage token of the x-human-id human)",
    request: { body: RealtimeClientSecretRequest },
    success: { kind: 'json', schema: RealtimeClientSecret },
  }),
};
