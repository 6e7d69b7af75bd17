import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { toolRoutes } from '../../contract/tools.js';
import type { RequestOptions } from '../http-client.js';
import type { PagePromise } from '../page-promise.js';
import { Resource } from '../resource.js';

type Routes = typeof toolRoutes;
export type ToolDefinition = RouteOutput<Routes['retrieve']>;

/** Tool definitions (API key only): functions the agent may call. */
export class Tools extends Resource {
  /**
   * @example
   * await client.tools.create({
   *   name: 'get_weather', description: 'Current weather for a city',
   *   parameters: [{ name: 'city', description: 'City name', type: 'string', required: true }],
   *   call_settings: { destination: { type: 'web_request', url: 'https://example.com/tools/weather' } },
   * })
   */
  create(body: RouteInput<Routes['create']>['body'], options?: RequestOptions): Promise<ToolDefinition> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/tool' }, { body }, options);
  }

  retrieve(toolId: string, options?: RequestOptions): Promise<ToolDefinition> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/tool/{tool}' }, { params: { tool: toolId } }, options);
  }

  /** Replaces the whole definition; the call settings keep their id. */
  update(toolId: string, body: RouteInput<Routes['update']>['body'], options?: RequestOptions): Promise<ToolDefinition> {
    return this.http.call<Routes['update']>({ method: 'PUT', path: '/v1/tool/{tool}' }, { params: { tool: toolId }, body }, options);
  }

  async delete(toolId: string, options?: RequestOptions): Promise<void> {
    await this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/tool/{tool}' }, { params: { tool: toolId } }, options);
  }

  list(query: RouteInput<Routes['list']>['query'] = {}, options?: RequestOptions): PagePromise<ToolDefinition> {
    return this.http.list<Routes['list']>({ method: 'GET', path: '/v1/tool/list' }, { query }, options);
  }
}
