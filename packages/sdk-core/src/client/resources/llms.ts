import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { llmRoutes } from '../../contract/llms.js';
import type { RequestOptions } from '../http-client.js';
import type { PagePromise } from '../page-promise.js';
import { Resource } from '../resource.js';

type Routes = typeof llmRoutes;
export type Llm = RouteOutput<Routes['retrieve']>;

/** LLM definitions: the platform's built-ins and the project's OpenAI-compatible endpoints. */
export class Llms extends Resource {
  /**
   * Header values may reference a stored secret as `{{secret:NAME}}`; the server substitutes it.
   *
   * @example
   * await client.llms.create({
   *   name: 'My model', description: '', model: 'llama3', post_url: 'https://llm.example.com/v1/chat/completions',
   *   headers: [{ key: 'Authorization', value: 'Bearer {{secret:LLM_KEY}}' }],
   * })
   */
  create(body: RouteInput<Routes['create']>['body'], options?: RequestOptions): Promise<Llm> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/llm' }, { body }, options);
  }

  retrieve(llmId: string, options?: RequestOptions): Promise<Llm> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/llm/{llm}' }, { params: { llm: llmId } }, options);
  }

  /** Replaces the whole definition. Built-in LLMs are read-only (403). */
  update(llmId: string, body: RouteInput<Routes['update']>['body'], options?: RequestOptions): Promise<Llm> {
    return this.http.call<Routes['update']>({ method: 'PUT', path: '/v1/llm/{llm}' }, { params: { llm: llmId }, body }, options);
  }

  delete(llmId: string, options?: RequestOptions): Promise<RouteOutput<Routes['delete']>> {
    return this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/llm/{llm}' }, { params: { llm: llmId } }, options);
  }

  list(query: RouteInput<Routes['list']>['query'] = {}, options?: RequestOptions): PagePromise<Llm> {
    return this.http.list<Routes['list']>({ method: 'GET', path: '/v1/llm/list' }, { query }, options);
  }
}
