import { z } from 'zod';
import { DateTime, FreeObject, Id, MessageResponse, PageQuery, listOf } from './common.js';
import { defineRoute } from './define-route.js';

/**
 * A tag name: lower-case letters, digits, `:`, `.` and `-` (e.g. `gender:female`, `accent:scottish`).
 * No spaces, since filters match whole names.
 */
export const VoiceTagName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9:.-]*$/, 'tag names use a-z, 0-9, ":", "." and "-"');

/** A BCP 47-like language code, e.g. `en`, `en-gb`, `cmn`. */
export const LanguageCode = z
  .string()
  .min(2)
  .max(35)
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'expected a language code such as "en" or "en-gb"');

export const VoiceTag = z
  .object({ name: z.string(), human_name: z.string() })
  .meta({ id: 'VoiceTag', description: 'Machine-readable `name` with a display `human_name`.' });
export type VoiceTag = z.infer<typeof VoiceTag>;

export const VoicePricing = z
  .object({
    price_per_second: z.string().describe('Decimal string, e.g. "0.0001".'),
    currency: z.string(),
    product_name: z.string().describe('Name of the product in a payment processor.'),
  })
  .meta({ id: 'VoicePricing' });
export type VoicePricing = z.infer<typeof VoicePricing>;

export const Voice = z
  .object({
    id: z.string(),
    created_at: DateTime,
    name: z.string(),
    language: z.string(),
    tags: z.array(VoiceTag),
    pricing: VoicePricing,
    service: z.string().nullable().optional().describe('Synthesis engine or provider, e.g. `flite`, `espeak-ng`.'),
    model: z.string().nullable().optional(),
    voice: z.string().nullable().optional().describe("The engine's own voice name."),
    provider_a_voice_id: z.string().nullable().optional(),
    provider_b_voice_id: z.string().nullable().optional(),
    project: z.string().nullable().optional().describe('Null for built-in voices.'),
    human: z.string().nullable().optional(),
    preview_url: z.string().nullable().optional(),
    embeddings: z.array(z.number()).nullable().optional(),
    lora: z.string().optional().describe('The Lora model used.'),
    _extra: FreeObject.optional().describe('Internal engine parameters.'),
  })
  .meta({ id: 'Voice' });
export type Voice = z.infer<typeof Voice>;

export const UpdateVoiceRequest = z
  .object({
    name: z.string().min(1).max(200),
    language: LanguageCode,
    tags: z.array(VoiceTagName).max(32).optional(),
  })
  .meta({ id: 'UpdateVoiceRequest' });
export type UpdateVoiceRequest = z.infer<typeof UpdateVoiceRequest>;

/** Longest text one generate call may synthesise, in characters. */
export const MAX_GENERATE_TEXT_LENGTH = 5_000;

export const GenerateVoiceRequest = z
  .object({
    text: z.string().min(1).max(MAX_GENERATE_TEXT_LENGTH),
    voice_id: Id.optional().describe('Voice to speak with (a default voice when omitted).'),
    moderation: z.boolean().optional().describe('Whether to moderate the text.'),
  })
  .meta({ id: 'GenerateVoiceRequest' });
export type GenerateVoiceRequest = z.infer<typeof GenerateVoiceRequest>;

export const CloneVoiceRequest = z
  .object({
    name: z.string().min(1).max(200),
    language: LanguageCode,
    file: z.file().min(1).describe('The recording to clone (MP3, audio/mpeg).'),
  })
  .meta({ id: 'CloneVoiceRequest' });
export type CloneVoiceRequest = z.infer<typeof CloneVoiceRequest>;

export const VoiceList = listOf(Voice, 'VoiceList');

const params = z.object({ voice_id: Id });

export const voiceRoutes = {
  clone: defineRoute({
    operationId: 'voices.clone',
    method: 'POST',
    path: '/v1/voice/clone',
    auth: 'K/B',
    tag: 'Voices',
    summary: 'Clone a voice from an uploaded recording',
    request: { body: CloneVoiceRequest, bodyEncoding: 'multipart' },
    success: { kind: 'json', schema: Voice },
    errors: [413],
  }),
  generate: defineRoute({
    operationId: 'voices.generate',
    method: 'POST',
    path: '/v1/voice/generate',
    auth: 'K/B',
    tag: 'Voices',
    summary: 'Synthesise speech from text',
    request: { body: GenerateVoiceRequest },
    success: { kind: 'binary', contentTypes: ['audio/mpeg', 'audio/wav'] },
    errors: [404],
  }),
  retrieve: defineRoute({
    operationId: 'voices.retrieve',
    method: 'GET',
    path: '/v1/voice/{voice_id}',
    auth: 'K/B',
    tag: 'Voices',
    summary: 'Get a voice',
    request: { params },
    success: { kind: 'json', schema: Voice },
    errors: [404],
  }),
  update: defineRoute({
    operationId: 'voices.update',
    method: 'PUT',
    path: '/v1/voice/{voice_id}',
    auth: 'K/B',
    tag: 'Voices',
    summary: "Update a project voice's name, language and tags",
    request: { params, body: UpdateVoiceRequest },
    success: { kind: 'json', schema: Voice },
    errors: [403, 404],
  }),
  delete: defineRoute({
    operationId: 'voices.delete',
    method: 'DELETE',
    path: '/v1/voice/{voice_id}',
    auth: 'K/B',
    tag: 'Voices',
    summary: 'Delete a project voice',
    request: { params },
    success: { kind: 'json', schema: MessageResponse },
    errors: [403, 404],
  }),
  list: defineRoute({
    operationId: 'voices.list',
    method: 'GET',
    path: '/v1/voice/list',
    auth: 'K/B',
    tag: 'Voices',
    summary: 'List built-in and project voices, optionally only those with every given tag',
    request: {
      query: PageQuery.extend({
        tags: z.array(VoiceTagName).max(16).optional().describe('Tag names; a voice must have all of them.'),
      }),
    },
    success: { kind: 'json', schema: VoiceList },
  }),
};
