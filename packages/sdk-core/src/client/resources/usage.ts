import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { usageRoutes } from '../../contract/usage.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof usageRoutes;

/** Usage tokens (server side, API key): mint, check, extend and revoke a human's browser credentials. */
export class Usage extends Resource {
  /** @example const { token } = await client.usage.createToken({ human: 'user-42', ttl_seconds: 900 }) */
  createToken(body: RouteInput<Routes['createToken']>['body'], options?: RequestOptions): Promise<RouteOutput<Routes['createToken']>> {
    return this.http.call<Routes['createToken']>({ method: 'POST', path: '/v1/usage/token' }, { body }, options);
  }

  /** @deprecated Set limits per human with this call only for compatibility. */
  updateLimits(body: RouteInput<Routes['updateLimits']>['body'], options?: RequestOptions): Promise<RouteOutput<Routes['updateLimits']>> {
    return this.http.call<Routes['updateLimits']>({ method: 'PUT', path: '/v1/usage/token' }, { body }, options);
  }

  updateTtl(body: RouteInput<Routes['updateTtl']>['body'], options?: RequestOptions): Promise<void> {
    return this.http.call<Routes['updateTtl']>({ method: 'POST', path: '/v1/usage/token/update_ttl' }, { body }, options);
  }

  checkToken(body: RouteInput<Routes['checkToken']>['body'], options?: RequestOptions): Promise<RouteOutput<Routes['checkToken']>> {
    return this.http.call<Routes['checkToken']>({ method: 'POST', path: '/v1/usage/token/check' }, { body }, options);
  }

  revokeToken(body: RouteInput<Routes['revokeToken']>['body'], options?: RequestOptions): Promise<void> {
    return this.http.call<Routes['revokeToken']>({ method: 'POST', path: '/v1/usage/token/revoke' }, { body }, options);
  }

  /** @deprecated The human's limits (from `humanId` or the usage token). */
  limits(options?: RequestOptions): Promise<RouteOutput<Routes['limits']>> {
    return this.http.call<Routes['limits']>({ method: 'GET', path: '/v1/usage/limits' }, {}, options);
  }
}
