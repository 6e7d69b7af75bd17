import { z } from 'zod';
import { FreeObject } from './common.js';
import { defineRoute } from './define-route.js';

/** @deprecated Kinds of metered usage. */
export const UsageType = z
  .enum(['conversational_seconds', 'voice_synthesis_seconds', 'token_cnt', 'memory_message_cnt'])
  .meta({ id: 'UsageType', deprecated: true });
export type UsageType = z.infer<typeof UsageType>;

export const Usage = z
  .object({
    id: z.string(),
    type: UsageType,
    value: z.number(),
    project: z.string(),
    human: z.string().optional(),
    metadata: FreeObject.optional(),
  })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof Usage>;

/** @deprecated */
export const UsageLimit = z.object({ type: UsageType, value: z.number().nonnegative() }).meta({ id: 'UsageLimit', deprecated: true });
/** @deprecated */
export const UsageLimits = z.array(UsageLimit).meta({ id: 'UsageLimits', deprecated: true });
export type UsageLimits = z.infer<typeof UsageLimits>;

const HumanName = z.string().min(1).max(256);
/** Longest usage token lifetime: 30 days. */
export const MAX_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
const TtlSeconds = z.number().int().min(1).max(MAX_TOKEN_TTL_SECONDS);

export const UsageTokenRequest = z
  .object({
    human: HumanName.optional().describe("The customer's user id."),
    ttl_seconds: TtlSeconds.default(3600),
    limits: UsageLimits.optional().meta({ deprecated: true }),
    human_id: HumanName.optional().meta({ deprecated: true, description: 'Use `human`.' }),
  })
  .refine((value) => value.human !== undefined || value.human_id !== undefined, {
    message: 'human is required',
    path: ['human'],
  })
  .meta({ id: 'UsageTokenRequest' });

export const UsageTokenResponse = z.object({ token: z.string() }).meta({ id: 'UsageTokenResponse' });

/** @deprecated */
export const UpdateUsageLimitsRequest = z
  .object({
    limits: UsageLimits,
    human: HumanName.optional(),
    human_id: HumanName.optional().meta({ deprecated: true }),
  })
  .refine((value) => value.human !== undefined || value.human_id !== undefined, {
    message: 'human is required',
    path: ['human'],
  })
  .meta({ id: 'UpdateUsageLimitsRequest', deprecated: true });

export const HumanRequest = z.object({ human: HumanName }).meta({ id: 'HumanRequest' });
export const UpdateTtlRequest = z.object({ human: HumanName, ttl_seconds: TtlSeconds }).meta({ id: 'UpdateTtlRequest' });
export const TtlResponse = z.object({ ttl_seconds: z.number().int() }).meta({ id: 'TtlResponse' });

export const usageRoutes = {
  createToken: defineRoute({
    operationId: 'usage.createToken',
    method: 'POST',
    path: '/v1/usage/token',
    auth: 'K',
    tag: 'Usage tokens',
    summary: 'Create a usage token for a human',
    request: { body: UsageTokenRequest },
    success: { kind: 'json', schema: UsageTokenResponse },
  }),
  updateLimits: defineRoute({
    operationId: 'usage.updateLimits',
    method: 'PUT',
    path: '/v1/usage/token',
    auth: 'K',
    tag: 'Usage tokens',
    summary: "Set a human's usage limits (deprecated)",
    deprecated: true,
    request: { body: UpdateUsageLimitsRequest },
    success: { kind: 'json', schema: z.object({}).meta({ id: 'EmptyObject' }) },
    errors: [429],
  }),
  updateTtl: defineRoute({
    operationId: 'usage.updateTtl',
    method: 'POST',
    path: '/v1/usage/token/update_ttl',
    auth: 'K',
    tag: 'Usage tokens',
    summary: "Change the remaining lifetime of a human's usage tokens",
    request: { body: UpdateTtlRequest },
    success: { kind: 'empty' },
  }),
  checkToken: defineRoute({
    operationId: 'usage.checkToken',
    method: 'POST',
    path: '/v1/usage/token/check',
    auth: 'K',
    tag: 'Usage tokens',
    summary: "Remaining lifetime of a human's usage token",
    request: { body: HumanRequest },
    success: { kind: 'json', schema: TtlResponse },
    errors: [404],
  }),
  revokeToken: defineRoute({
    operationId: 'usage.revokeToken',
    method: 'POST',
    path: '/v1/usage/token/revoke',
    auth: 'K',
    tag: 'Usage tokens',
    summary: "Revoke a human's usage tokens (succeeds when none is active)",
    request: { body: HumanRequest },
    success: { kind: 'empty' },
  }),
  limits: defineRoute({
    operationId: 'usage.limits',
    method: 'GET',
    path: '/v1/usage/limits',
    auth: 'K/B',
    tag: 'Usage tokens',
    summary: "A human's usage limits (deprecated; the human comes from `x-human-id` or the token)",
    deprecated: true,
    success: { kind: 'json', schema: UsageLimits },
    errors: [429],
  }),
};
