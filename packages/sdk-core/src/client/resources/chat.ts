import type { chatRoutes } from '../../contract/chat.js';
import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof chatRoutes;
type CompletionRequest = RouteInput<Routes['create']>['body'];
export type ChatCompletion = RouteOutput<Routes['create']>;

/** OpenAI-compatible chat completions, answered whole. */
class Completions extends Resource {
  /**
   * One completion, not streamed. For token streaming use `createOpenAiClient` (`@palaver/sdk-core/openai`) or,
   * in browsers, `streamChatCompletion`.
   *
   * @example
   * const completion = await client.chat.completions.create({ model: 'builtin-offline', messages: [{ role: 'user', content: 'Hello' }] });
   * console.log(completion.choices[0]?.message.content);
   */
  create(body: Omit<CompletionRequest, 'stream'> & { stream?: false | null }, options?: RequestOptions): Promise<ChatCompletion> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/chat/completions' }, { body: { ...body, stream: false } }, options);
  }
}

/** Chat: `client.chat.completions.create(...)`. */
export class Chat extends Resource {
  readonly completions = new Completions(this.http);
}
