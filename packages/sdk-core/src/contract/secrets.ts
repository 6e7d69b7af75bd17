import { z } from 'zod';
import { DateTime, Id, MessageResponse, PageQuery, listOf } from './common.js';
import { defineRoute } from './define-route.js';

/** Secret names: unique per owner (the project, or one human of it), referenced from LLM headers as `{{secret:NAME}}`. */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
/** Largest accepted secret value (characters). */
export const MAX_SECRET_VALUE_LENGTH = 16_384;

export const SecretName = z.string().regex(SECRET_NAME_PATTERN, 'must be 1 to 128 characters of A-Z, a-z, 0-9, "_", "." or "-"');

export const Secret = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'Secret', description: 'A stored secret. Its value is write-only: no operation ever returns it.' });
export type Secret = z.infer<typeof Secret>;

export const CreateSecretRequest = z
  .object({
    name: SecretName,
    value: z.string().min(1).max(MAX_SECRET_VALUE_LENGTH).describe('Encrypted at rest; never returned.'),
  })
  .meta({ id: 'CreateSecretRequest' });
export type CreateSecretRequest = z.infer<typeof CreateSecretRequest>;

export const SecretList = listOf(Secret, 'SecretList');

const params = z.object({ secret: Id.describe('Secret id (or its name).') });

export const secretRoutes = {
  create: defineRoute({
    operationId: 'secrets.create',
    method: 'POST',
    path: '/v1/secret',
    auth: 'K/B',
    tag: 'Secrets',
    summary: 'Store a secret',
    request: { body: CreateSecretRequest },
    success: { kind: 'json', schema: Secret },
  }),
  update: defineRoute({
    operationId: 'secrets.update',
    method: 'PUT',
    path: '/v1/secret/{secret}',
    auth: 'K/B',
    tag: 'Secrets',
    summary: 'Rename a secret and replace its value',
    request: { params, body: CreateSecretRequest },
    success: { kind: 'json', schema: Secret },
    errors: [403, 404],
  }),
  delete: defineRoute({
    operationId: 'secrets.delete',
    method: 'DELETE',
    path: '/v1/secret/{secret}',
    auth: 'K/B',
    tag: 'Secrets',
    summary: 'Delete a secret',
    request: { params },
    success: { kind: 'json', schema: MessageResponse },
    errors: [403, 404],
  }),
  list: defineRoute({
    operationId: 'secrets.list',
    method: 'GET',
    path: '/v1/secret/list',
    auth: 'K/B',
    tag: 'Secrets',
    summary: 'List secrets (names only)',
    request: { query: PageQuery },
    success: { kind: 'json', schema: SecretList },
  }),
};
