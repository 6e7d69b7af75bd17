import { z } from 'zod';
import { Id } from './common.js';
import { defineRoute } from './define-route.js';
import { MAX_SPOKEN_TEXT_LENGTH, RealtimeSessionGeneralConfig, RealtimeSessionStartResponse } from './realtime.js';

/** The partner's session config: the LLM is fixed by the partner, so only the voice can be chosen. */
export const PartnerAvatarSessionConfigCreate = z
  .object({
    general: RealtimeSessionGeneralConfig,
    input: z.object({ interruptable: z.boolean().default(true) }),
    generative: z.object({ voice_override: Id.optional().describe('Voice id.') }),
    output: z.object({
      stream_transcript: z.boolean().default(true),
      answer_message: z.string().min(1).max(MAX_SPOKEN_TEXT_LENGTH).optional(),
    }),
  })
  .meta({ id: 'PartnerAvatarSessionConfigCreate' });

/** Start request of a partner avatar session: exactly one of `avatar_agent_id` and `avatar_agent_image_url`. */
export const PartnerAvatarSessionStartRequest = z
  .object({
    conversation_id: z.string().min(1).max(200),
    config: PartnerAvatarSessionConfigCreate,
    simulated: z.boolean().optional(),
    environment: z.string().min(1).max(100).default('production'),
    avatar_agent_id: z.string().min(1).max(200).optional(),
    avatar_agent_image_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    tts: z
      .object({ service: z.string().min(1).max(100), voice: z.string().min(1).max(200) })
      .optional()
      .describe('Speech synthesis service and voice of the avatar.'),
  })
  .refine((request) => (request.avatar_agent_id === undefined) !== (request.avatar_agent_image_url === undefined), {
    message: 'exactly one of avatar_agent_id and avatar_agent_image_url is required',
    path: ['avatar_agent_id'],
  })
  .meta({ id: 'PartnerAvatarSessionStartRequest', description: 'Exactly one of `avatar_agent_id` and `avatar_agent_image_url` must be given.' });
export type PartnerAvatarSessionStartRequest = z.input<typeof PartnerAvatarSessionStartRequest>;

export const PartnerAvatarActionRequest = z
  .object({ action: z.string().min(1).max(200).describe('An avatar pose such as a wave, a dance or a turn.') })
  .meta({ id: 'PartnerAvatarActionRequest' });

const tag = 'Realtime sessions';

export const partnerRoutes = {
  startAvatarSession: defineRoute({
    operationId: 'partner.startAvatarSession',
    method: 'POST',
    path: '/v1/partner_a/session/avatar_a',
    auth: 'K/B',
    tag,
    summary: 'Start a partner avatar realtime session',
    request: { body: PartnerAvatarSessionStartRequest },
    success: { kind: 'json', schema: RealtimeSessionStartResponse },
  }),
  avatarAction: defineRoute({
    operationId: 'partner.avatarAction',
    method: 'POST',
    path: '/v1/partner_a/session/avatar_a/{session}/action',
    auth: 'K/B',
    tag,
    summary: 'Make the avatar of a partner session perform an action',
    request: { params: z.object({ session: Id }), body: PartnerAvatarActionRequest },
    success: { kind: 'empty' },
    errors: [404],
  }),
};
