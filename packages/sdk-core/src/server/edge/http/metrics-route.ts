import type { Hono } from 'hono';
import type { Services } from '../../domain/services.js';
import type { AppEnvironment } from './app-environment.js';
import { authenticate } from './authenticate.js';
import { requestHeaders } from './node-headers.js';

/** Where Prometheus scrapes this instance. */
export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics`: this instance's metrics in Prometheus text format (`services.metrics`). Outside the
 * contract like `/health`, and documented in the OpenAPI description (`x-metrics`). It needs an API key,
 * checked exactly as for an API-key-only (K) operation (`x-api-key` or `Authorization: Bearer pk_...`; a
 * usage token is refused with 403), unless `metrics.public` (`PALAVER_METRICS_PUBLIC=true`) opens it to a
 * scraper that holds no key. Never cached: every answer is read at that moment.
 *
 * @example
 * registerMetricsRoute(app, services);
 * // curl -H "x-api-key: $PALAVER_API_KEY" http://127.0.0.1:8080/metrics
 */
export function registerMetricsRoute(app: Hono<AppEnvironment>, services: Services): void {
  app.get(METRICS_PATH, async (context) => {
    if (!services.config.metrics.public) await authenticate(requestHeaders(context), 'K', services, { humanHeader: false });
    const text = await services.metrics.scrape();
    return context.body(text, 200, { 'content-type': services.metrics.contentType, 'cache-control': 'no-store' });
  });
}
