import type { RouteOutput } from '../../contract/define-route.js';
import type { modelRoutes } from '../../contract/models.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof modelRoutes;
export type OpenAiModel = RouteOutput<Routes['retrieve']>;

/**
 * The caller's LLMs as OpenAI models (`GET /v1/models`, a Palaver extension for OpenAI clients); `llms` has the
 * full definitions.
 */
export class Models extends Resource {
  /** @example const { data } = await client.models.list(); // [{ id: 'builtin-offline', object: 'model', ... }] */
  list(options?: RequestOptions): Promise<RouteOutput<Routes['list']>> {
    return this.http.call<Routes['list']>({ method: 'GET', path: '/v1/models' }, {}, options);
  }

  retrieve(modelId: string, options?: RequestOptions): Promise<OpenAiModel> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/models/{model}' }, { params: { model: modelId } }, options);
  }
}
