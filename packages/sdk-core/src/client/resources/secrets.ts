import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { secretRoutes } from '../../contract/secrets.js';
import type { RequestOptions } from '../http-client.js';
import type { PagePromise } from '../page-promise.js';
import { Resource } from '../resource.js';

type Routes = typeof secretRoutes;
export type Secret = RouteOutput<Routes['create']>;

/** Secrets: write-only values (encrypted at rest) that LLM headers reference as `{{secret:NAME}}`. */
export class Secrets extends Resource {
  /** @example await client.secrets.create({ name: 'LLM_KEY', value: process.env.LLM_KEY! }) */
  create(body: RouteInput<Routes['create']>['body'], options?: RequestOptions): Promise<Secret> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/secret' }, { body }, options);
  }

  /** Renames the secret and replaces its value; `secret` is its id or name. */
  update(secret: string, body: RouteInput<Routes['update']>['body'], options?: RequestOptions): Promise<Secret> {
    return this.http.call<Routes['update']>({ method: 'PUT', path: '/v1/secret/{secret}' }, { params: { secret }, body }, options);
  }

  /** `secret` is its id or name. */
  delete(secret: string, options?: RequestOptions): Promise<RouteOutput<Routes['delete']>> {
    return this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/secret/{secret}' }, { params: { secret } }, options);
  }

  /** Names and dates only: values are never returned. */
  list(query: RouteInput<Routes['list']>['query'] = {}, options?: RequestOptions): PagePromise<Secret> {
    return this.http.list<Routes['list']>({ method: 'GET', path: '/v1/secret/list' }, { query }, options);
  }
}
