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

  /**
   * OpenAI's WebRTC handshake: posts an SDP offer (as `application/sdp`), answers the server's SDP and the call id.
   * Browsers use `@openai/agents-realtime`'s `OpenAIRealtimeWebRTC` with `baseUrl` set to this server's
   * `/v1/realtime/calls`; this is for other WebRTC stacks.
   *
   * @example
   * const { sdp, callId } = await client.openaiRealtime.createCall(offer.sdp, { model: 'builtin-offline' });
   */
  async createCall(offer: string, query: RouteInput<Routes['createCall']>['query'] = {}, options?: RequestOptions): Promise<{ sdp: string; callId: string }> {
    const response = await this.http.send('POST', '/v1/realtime/calls', { query, body: new Blob([offer], { type: 'application/sdp' }) }, options);
    const callId = (response.headers.get('location') ?? '').split('/').pop() ?? '';
    return { sdp: await response.text(), callId };
  }

  /**
   * Ends a WebRTC call.
   *
   * @example
   * await client.openaiRealtime.hangupCall(callId);
   */
  hangupCall(callId: string, options?: RequestOptions): Promise<void> {
    return this.http.call<Routes['hangupCall']>({ method: 'POST', path: '/v1/realtime/calls/{call_id}/hangup' }, { params: { call_id: callId } }, options);
  }
}
