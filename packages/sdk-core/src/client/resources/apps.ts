import type { appRoutes } from '../../contract/apps.js';
import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof appRoutes;
export type App = RouteOutput<Routes['retrieve']>;

/** Apps: graphs of processing nodes, saved as numbered versions with one published version. */
export class Apps extends Resource {
  /**
   * A new app at version 1: an empty graph, or a clone of `existing_app_id`'s newest version.
   * @example const app = await client.apps.create({ name: 'Support line' })
   */
  create(body: RouteInput<Routes['create']>['body'], options?: RequestOptions): Promise<App> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/app/create' }, { body }, options);
  }

  /** @example const v2 = await client.apps.retrieve(app.id, { version: 2 }) */
  retrieve(appId: string, query: RouteInput<Routes['retrieve']>['query'] = {}, options?: RequestOptions): Promise<App> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/app/{app}' }, { params: { app: appId }, query }, options);
  }

  /**
   * Saves a new version; `version` must be the newest one (else a 400 `stale version`).
   * @example const next = await client.apps.update(app.id, { version: app.version, graph })
   */
  update(appId: string, body: RouteInput<Routes['update']>['body'], options?: RequestOptions): Promise<App> {
    return this.http.call<Routes['update']>({ method: 'POST', path: '/v1/app/{app}' }, { params: { app: appId }, body }, options);
  }

  /** @example await client.apps.publish(app.id, { version: 3 }) */
  publish(appId: string, body: RouteInput<Routes['publish']>['body'], options?: RequestOptions): Promise<App> {
    return this.http.call<Routes['publish']>({ method: 'POST', path: '/v1/app/{id}/publish' }, { params: { id: appId }, body }, options);
  }

  /** @example const { newest, published, all } = await client.apps.versions(app.id, { page_size: 10 }) */
  versions(appId: string, query: RouteInput<Routes['versions']>['query'] = {}, options?: RequestOptions): Promise<RouteOutput<Routes['versions']>> {
    return this.http.call<Routes['versions']>({ method: 'GET', path: '/v1/app/{id}/versions' }, { params: { id: appId }, query }, options);
  }

  /** Soft delete. @example await client.apps.delete(app.id) */
  delete(appId: string, options?: RequestOptions): Promise<void> {
    return this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/app/{id}/delete' }, { params: { id: appId } }, options);
  }

  /** @example const apps = await client.apps.list() */
  list(options?: RequestOptions): Promise<App[]> {
    return this.http.call<Routes['list']>({ method: 'GET', path: '/v1/app/list' }, {}, options);
  }

  /** Built-in example apps, ready to clone with `create({ name, existing_app_id })`. */
  examples(options?: RequestOptions): Promise<App[]> {
    return this.http.call<Routes['examples']>({ method: 'GET', path: '/v1/app/examples' }, {}, options);
  }
}
