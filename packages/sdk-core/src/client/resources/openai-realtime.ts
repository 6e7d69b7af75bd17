import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { openAiRealtimeRoutes } from '../../contract/openai-realtime.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof openAiRealtimeRoutes;

/** OpenAI's Realtime API (`/v1/realtime`): the socket is for `openai`'s clients; this makes their ephemeral keys. */
export class OpenAiRealtime extends Resource {
  /**
   * An ephemeral key (a usage token of the human) for a browser's `OpenAIRealtimeWS` or `RealtimeSession`.
   *
   * @example
   * const { value } = await client.openaiRealtime.createClientSecret({ session: { type: 'realtime', model: 'builtin-offline' } }, { headers: { 'x-human-id': 'user_1234' } });
   */
  createClientSecret(
    body: RouteInput<Routes['createClientSecret']>['body'] = {},
    options?: RequestOptions,
  ): Promise<RouteOutput<Routes['createClientSecret']>> {
    return this.http.call<Routes['createClientSecret']>({ method: 'POST', path: '/v1/realtime/client_secrets' }, { body }, options);
  }
}
