import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { responseRoutes } from '../../contract/responses.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof responseRoutes;
type ResponseRequest = RouteInput<Routes['create']>['body'];
export type ResponseObject = RouteOutput<Routes['create']>;
export type ResponseItemList = RouteOutput<Routes['inputItems']>;

/**
 * OpenAI's Responses API (Palaver extension): answered whole here; for streamed events and `parse` use the `openai`
 * client from `createOpenAiClient` (`@palaver/sdk-core/openai`).
 */
export class Responses extends Resource {
  /**
   * @example
   * const response = await client.responses.create({ model: 'builtin-offline', instructions: 'Be brief.', input: 'Hello' });
   * const next = await client.responses.create({ model: 'builtin-offline', previous_response_id: response.id, input: 'And then?' });
   */
  create(body: Omit<ResponseRequest, 'stream'> & { stream?: false | null }, options?: RequestOptions): Promise<ResponseObject> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/responses' }, { body: { ...body, stream: false } }, options);
  }

  retrieve(responseId: string, options?: RequestOptions): Promise<ResponseObject> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/responses/{response_id}' }, { params: { response_id: responseId } }, options);
  }

  delete(responseId: string, options?: RequestOptions): Promise<RouteOutput<Routes['delete']>> {
    return this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/responses/{response_id}' }, { params: { response_id: responseId } }, options);
  }

  /** @example const { data, has_more } = await client.responses.inputItems(response.id, { order: 'asc' }); */
  inputItems(responseId: string, query: RouteInput<Routes['inputItems']>['query'] = {}, options?: RequestOptions): Promise<ResponseItemList> {
    return this.http.call<Routes['inputItems']>(
      { method: 'GET', path: '/v1/responses/{response_id}/input_items' },
      { params: { response_id: responseId }, query },
      options,
    );
  }
}
