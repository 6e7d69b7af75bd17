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

/**
 * `POST /v1/realtime/calls`: OpenAI's WebRTC handshake. The body is the client's SDP offer, as `application/sdp` (what
 * `@openai/agents-realtime`'s `OpenAIRealtimeWebRTC` sends) or as the `sdp` field of a form with an optional `session`
 * (JSON: `type` and `model`, as `client_secrets` takes). The answer is the server's SDP (201, `Location` naming the
 * call); the same events as the websocket's flow on the `oai-events` data channel, the audio as Opus tracks.
 */
export const RealtimeCallRequest = z
  .strictObject({
    sdp: z.string().min(1).max(100_000).describe("The client's SDP offer (an audio track and the `oai-events` data channel)."),
    session: z.string().max(10_000).optional().describe('JSON of `{ type: "realtime", model }` (the rest is set with `session.update` on the data channel).'),
  })
  .meta({ id: 'RealtimeCallRequest' });

export const RealtimeCallQuery = z.strictObject({
  model: z.string().min(1).max(200).optional().describe('An LLM id of the platform (default: the `session` field, else the first LLM listed).'),
});

export const RealtimeCallParams = z.strictObject({ call_id: z.string().min(1).max(100) });

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
  createCall: defineRoute({
    operationId: 'openaiRealtime.createCall',
    method: 'POST',
    path: '/v1/realtime/calls',
    auth: 'K/B',
    tag: 'OpenAI Realtime',
    summary: "OpenAI's Realtime API over WebRTC: the SDP offer in, the SDP answer out (201, Location: the call)",
    request: { query: RealtimeCallQuery, body: RealtimeCallRequest, bodyEncoding: 'sdp' },
    success: { kind: 'binary', contentTypes: ['application/sdp'] },
  }),
  hangupCall: defineRoute({
    operationId: 'openaiRealtime.hangupCall',
    method: 'POST',
    path: '/v1/realtime/calls/{call_id}/hangup',
    auth: 'K/B',
    tag: 'OpenAI Realtime',
    summary: 'Ends a WebRTC call of the Realtime API (its conversation and metering)',
    request: { params: RealtimeCallParams },
    success: { kind: 'empty' },
    errors: [404],
  }),
};
