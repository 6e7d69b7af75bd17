import { z } from 'zod';
import { DateTime, Id, MessageResponse, PageQuery, listOf } from './common.js';
import { defineRoute } from './define-route.js';

/** Longest accepted `image_url` (a `data:` image counts fully; the JSON body limit applies as well). */
const MAX_IMAGE_URL_LENGTH = 1_000_000;

/**
 * Whether `value` is an http(s) URL or a `data:image/*` URL: the only schemes a client can put in an
 * `<img src>` without risk (`javascript:`, `vbscript:`, `file:` and other data types are refused).
 */
function isImageUrl(value: string): boolean {
  if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(value)) return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const ImageUrl = z
  .string()
  .max(MAX_IMAGE_URL_LENGTH)
  .refine(isImageUrl, 'must be an http(s) URL or a data:image/* URL')
  .describe('An http(s) URL or a data:image/* URL.');

export const Gender = z.enum(['male', 'female']).meta({ id: 'Gender' });

export const Tag = z
  .object({ name: z.string(), human_name: z.string() })
  .meta({ id: 'Tag', description: 'Machine-readable `name` with a display `human_name`.' });

export const Persona = z
  .object({
    id: z.string(),
    created_at: DateTime,
    name: z.string(),
    description: z.string(),
    voice: z.string().describe('Voice id.'),
    project: z.string(),
    image_url: z.string().nullable().optional(),
    human: z.string().nullable().optional(),
    gender: Gender.nullable().optional(),
    tags: z.array(Tag).optional(),
  })
  .meta({ id: 'Persona' });
export type Persona = z.infer<typeof Persona>;

export const CreatePersonaRequest = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(20_000),
    voice: z.string().min(1),
    image_url: ImageUrl.optional(),
    gender: Gender.optional(),
  })
  .meta({ id: 'CreatePersonaRequest' });
export type CreatePersonaRequest = z.infer<typeof CreatePersonaRequest>;

export const UpdatePersonaRequest = z
  .object({
    name: z.string().min(1).max(200).optional(),
    description: z.string().max(20_000).optional(),
    voice: z.string().min(1).optional(),
    image_url: ImageUrl.nullable().optional(),
    gender: Gender.nullable().optional(),
  })
  .meta({ id: 'UpdatePersonaRequest' });
export type UpdatePersonaRequest = z.infer<typeof UpdatePersonaRequest>;

export const PersonaList = listOf(Persona, 'PersonaList');

const params = z.object({ persona_id: Id });

export const personaRoutes = {
  list: defineRoute({
    operationId: 'personas.list',
    method: 'GET',
    path: '/v1/persona/list',
    auth: 'K/B',
    tag: 'Personas',
    summary: 'List personas',
    request: { query: PageQuery },
    success: { kind: 'json', schema: PersonaList },
  }),
  retrieve: defineRoute({
    operationId: 'personas.retrieve',
    method: 'GET',
    path: '/v1/persona/{persona_id}',
    auth: 'K/B',
    tag: 'Personas',
    summary: 'Get a persona',
    request: { params },
    success: { kind: 'json', schema: Persona },
    errors: [404],
  }),
  update: defineRoute({
    operationId: 'personas.update',
    method: 'PUT',
    path: '/v1/persona/{persona_id}',
    auth: 'K/B',
    tag: 'Personas',
    summary: 'Update a persona',
    request: { params, body: UpdatePersonaRequest },
    success: { kind: 'json', schema: Persona },
    errors: [404],
  }),
  delete: defineRoute({
    operationId: 'personas.delete',
    method: 'DELETE',
    path: '/v1/persona/{persona_id}',
    auth: 'K/B',
    tag: 'Personas',
    summary: 'Delete a persona',
    request: { params },
    success: { kind: 'json', schema: MessageResponse },
    errors: [404],
  }),
  create: defineRoute({
    operationId: 'personas.create',
    method: 'POST',
    path: '/v1/persona',
    auth: 'K/B',
    tag: 'Personas',
    summary: 'Create a persona',
    request: { body: CreatePersonaRequest },
    success: { kind: 'json', schema: Persona },
  }),
};
