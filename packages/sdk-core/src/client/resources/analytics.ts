import type { analyticsRoutes } from '../../contract/analytics.js';
import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof analyticsRoutes;

/** Analytics: reports over conversations. */
export class Analytics extends Resource {
  /**
   * Conversation messages created in a range (at most 366 days), oldest first, up to 10 000.
   *
   * @example
   * const rows = await client.analytics.conversationMessages({ start_date: '2025-01-01T00:00:00Z', end_date: '2025-01-31T23:59:59Z' });
   */
  conversationMessages(
    query: RouteInput<Routes['conversationMessages']>['query'],
    options?: RequestOptions,
  ): Promise<RouteOutput<Routes['conversationMessages']>> {
    return this.http.call<Routes['conversationMessages']>({ method: 'GET', path: '/v1/analytics/conversation_messages' }, { query }, options);
  }
}
