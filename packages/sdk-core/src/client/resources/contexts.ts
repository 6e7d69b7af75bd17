import type { contextRoutes } from '../../contract/contexts.js';
import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { RequestOptions } from '../http-client.js';
import type { PagePromise } from '../page-promise.js';
import { Resource } from '../resource.js';

type Routes = typeof contextRoutes;
export type Context = RouteOutput<Routes['retrieve']>;
export type ContextMessage = RouteOutput<Routes['retrieveMessage']>;

/** Query of `listMessages`: pagination and an optional id filter. */
export type ContextMessageListQuery = Omit<NonNullable<RouteInput<Routes['listMessages']>['query']>, 'message_ids'> & {
  messageIds?: readonly string[];
};

/** The spec's comma-separated form of an id filter (sent as one value). */
function commaSeparated(ids: readonly string[]): string[] {
  return [ids.join(',')];
}

/** Contexts: conversation histories (messages) that LLM calls and realtime sessions read and extend. */
export class Contexts extends Resource {
  /**
   * @example
   * const context = await client.contexts.create({ persona: persona.id, messages: [{ role: 'user', content: 'Hi!' }] });
   */
  create(body: RouteInput<Routes['create']>['body'] = {}, options?: RequestOptions): Promise<Context> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/llm/context' }, { body }, options);
  }

  /** A context with its 20 most recent messages. */
  retrieve(contextId: string, options?: RequestOptions): Promise<Context> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/llm/context/{context}' }, { params: { context: contextId } }, options);
  }

  /**
   * Several contexts by id (at most 100); ids that do not exist or are not visible are left out.
   *
   * @example
   * const { values } = await client.contexts.list(['context_01...', 'context_02...']);
   */
  list(contextIds: readonly string[], options?: RequestOptions): Promise<RouteOutput<Routes['list']>> {
    return this.http.call<Routes['list']>({ method: 'GET', path: '/v1/llm/context/list' }, { query: { context_ids: commaSeparated(contextIds) } }, options);
  }

  /**
   * A context's messages, oldest first; awaitable (first page) and async-iterable (every message).
   *
   * @example
   * for await (const message of client.contexts.listMessages(contextId)) console.log(message.role, message.content);
   */
  listMessages(contextId: string, query: ContextMessageListQuery = {}, options?: RequestOptions): PagePromise<ContextMessage> {
    const { messageIds, ...rest } = query;
    return this.http.list<Routes['listMessages']>(
      { method: 'GET', path: '/v1/llm/context/{context}/message/list' },
      { params: { context: contextId }, query: { ...rest, ...(messageIds ? { message_ids: commaSeparated(messageIds) } : {}) } },
      options,
    );
  }

  /** @example await client.contexts.createMessage(contextId, { role: 'user', content: 'What is the weather?' }) */
  createMessage(contextId: string, body: RouteInput<Routes['createMessage']>['body'], options?: RequestOptions): Promise<ContextMessage> {
    return this.http.call<Routes['createMessage']>(
      { method: 'POST', path: '/v1/llm/context/{context}/message' },
      { params: { context: contextId }, body },
      options,
    );
  }

  retrieveMessage(contextId: string, messageId: string, options?: RequestOptions): Promise<ContextMessage> {
    return this.http.call<Routes['retrieveMessage']>(
      { method: 'GET', path: '/v1/llm/context/{context}/message/{message}' },
      { params: { context: contextId, message: messageId } },
      options,
    );
  }

  /** Nodes and edges of the context's memory graph relevant to a new user message. */
  queryAdvancedMemory(
    contextId: string,
    body: RouteInput<Routes['queryAdvancedMemory']>['body'],
    options?: RequestOptions,
  ): Promise<RouteOutput<Routes['queryAdvancedMemory']>> {
    return this.http.call<Routes['queryAdvancedMemory']>(
      { method: 'POST', path: '/v1/llm/context/{context}/advanced_memory/query' },
      { params: { context: contextId }, body },
      options,
    );
  }
}
