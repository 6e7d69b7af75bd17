import type { Services } from '../domain/services.js';

/**
 * Applies the webhook configuration once the development project exists: `PALAVER_WEBHOOK_URL` becomes
 * the dev project's endpoint, signed with `PALAVER_WEBHOOK_SECRET` or, when that is unset, with the dev
 * API key (the spec signs with "the customer's configured service key"). Then starts the dispatcher
 * unless `webhook.dispatch` (`PALAVER_WEBHOOK_DISPATCH`) is false, e.g. on API-only instances.
 *
 * @example
 * const dev = await services.projects.ensureDevProject(config.apiKey);
 * await startWebhookDelivery(services, dev);
 */
export async function startWebhookDelivery(services: Services, dev: { project: string; apiKey: string }): Promise<void> {
  const { webhook } = services.config;
  if (webhook.url) await services.webhooks.configureEndpoint(dev.project, webhook.url, webhook.secret ?? dev.apiKey);
  if (webhook.dispatch) services.webhookDispatcher.start();
}
