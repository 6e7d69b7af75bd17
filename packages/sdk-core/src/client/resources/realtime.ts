import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { realtimeRoutes } from '../../contract/realtime.js';
import type { RequestOptions } from '../http-client.js';
import type { PagePromise } from '../page-promise.js';
import { Resource } from '../resource.js';

type Routes = typeof realtimeRoutes;
export type RealtimeSessionRecord = RouteOutput<Routes['retrieve']>;
export type RealtimeSessionStart = RouteOutput<Routes['start']>;

/** Realtime agent sessions: start one, then join its LiveKit room with the returned connection details. */
export class RealtimeSessions extends Resource {
  /**
   * @example
   * const { session, connection_details } = await client.realtime.start({
   *   config: { general: {}, input: {}, output: { answer_message: 'Hello!' }, generative: { llm: 'llm_builtin' } },
   * });
   * // A LiveKit Agents worker's agent: the other sections may be left out (Palaver extension).
   * await client.realtime.start({ config: { general: { agent: { type: 'livekit_worker', agent_name: 'echo-agent' } } } });
   */
  start(body: RouteInput<Routes['start']>['body'], options?: RequestOptions): Promise<RealtimeSessionStart> {
    return this.http.call<Routes['start']>({ method: 'POST', path: '/v1/realtime/start' }, { body }, options);
  }

  retrieve(sessionId: string, options?: RequestOptions): Promise<RealtimeSessionRecord> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/realtime/{session}' }, { params: { session: sessionId } }, options);
  }

  /** @example await client.realtime.update(session.id, { output: { speech_synthesis_enabled: false } }) */
  update(sessionId: string, body: RouteInput<Routes['update']>['body'], options?: RequestOptions): Promise<RealtimeSessionRecord> {
    return this.http.call<Routes['update']>({ method: 'POST', path: '/v1/realtime/{session}/update' }, { params: { session: sessionId }, body }, options);
  }

  end(sessionId: string, options?: RequestOptions): Promise<RealtimeSessionRecord> {
    return this.http.call<Routes['end']>({ method: 'POST', path: '/v1/realtime/{session}/end' }, { params: { session: sessionId } }, options);
  }

  /**
   * The recording of a session started with `config.general.recording: true` (Palaver extension): a 16 kHz stereo
   * WAV, the human on the left channel, the agent on the right. Ready once the session ended (404 until then).
   *
   * @example
   * const wav = await client.realtime.recording(session.id); // a Blob, audio/wav
   */
  recording(sessionId: string, options?: RequestOptions): Promise<Blob> {
    return this.http.call<Routes['recording']>({ method: 'GET', path: '/v1/realtime/{session}/recording' }, { params: { session: sessionId } }, options);
  }

  /** Deletes an ended session and its recording (Palaver extension). @example await client.realtime.delete(session.id) */
  delete(sessionId: string, options?: RequestOptions): Promise<void> {
    return this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/realtime/{session}' }, { params: { session: sessionId } }, options);
  }

  /** API key only. @example await client.realtime.speak(session.id, { text: 'One moment please.' }) */
  speak(sessionId: string, body: RouteInput<Routes['speak']>['body'], options?: RequestOptions): Promise<RealtimeSessionRecord> {
    return this.http.call<Routes['speak']>({ method: 'POST', path: '/v1/realtime/{session}/speak' }, { params: { session: sessionId }, body }, options);
  }

  /**
   * The agents a session can choose with `config.general.agent`: the built-in agent and each registered LiveKit
   * Agents worker (Palaver extension).
   *
   * @example
   * const { values } = await client.realtime.agents();
   * const worker = values.find((agent) => agent.type === 'livekit_worker'); // { type: 'livekit_worker', agent_name: 'echo-agent', ... }
   */
  agents(options?: RequestOptions): Promise<RouteOutput<Routes['agents']>> {
    return this.http.call<Routes['agents']>({ method: 'GET', path: '/v1/realtime/agents' }, {}, options);
  }

  list(query: RouteInput<Routes['list']>['query'] = {}, options?: RequestOptions): PagePromise<RealtimeSessionRecord> {
    return this.http.list<Routes['list']>({ method: 'GET', path: '/v1/realtime/list' }, { query }, options);
  }
}
