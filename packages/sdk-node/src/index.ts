/**
 * `@palaver/sdk-node`: server-side helpers for Palaver.
 *
 * @example
 * import { createUsageToken } from '@palaver/sdk-node';
 */
export { createUsageToken } from './tokens/create-usage-token.js';
export type { CreateUsageTokenOptions } from './tokens/create-usage-token.js';
export { verifyWebhook, WebhookVerificationError } from './webhooks/verify-webhook.js';
export type { VerifyWebhookOptions, HeaderSource } from './webhooks/verify-webhook.js';
export { createWebhookHandler, createNodeWebhookHandler, createExpressWebhookMiddleware } from './webhooks/webhook-handlers.js';
export type { WebhookHandlerOptions, ExpressLikeRequest, ExpressLikeResponse } from './webhooks/webhook-handlers.js';
