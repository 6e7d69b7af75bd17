/**
 * `@palaver/sdk-core/realtime`: the browser connector to a Palaver voice agent (over livekit-client).
 * Kept out of the `.` entry so REST-only apps never bundle livekit-client.
 *
 * @example
 * import { createRealtimeSession } from '@palaver/sdk-core/realtime';
 * const session = createRealtimeSession({ baseUrl: 'https://api.example.com' });
 * session.subscribe(() => console.log(session.getSnapshot().connectionState));
 * await session.connect({ token: usageToken, config });
 */
export { createRealtimeSession, RealtimeSession } from './realtime/realtime-session.js';
export type { AudioSource, RealtimeSessionOptions } from './realtime/realtime-session.js';
export type { RealtimeSessionEvents } from './realtime/session-events.js';
export { initialRealtimeState } from './realtime/session-state.js';
export type { RealtimeEnd, RealtimeEndReason, RealtimePhase, RealtimeState, RealtimeStateBase, RealtimeStatus } from './realtime/session-state.js';
export { reduceRealtime } from './realtime/session-reducer.js';
export type { RealtimeTransition } from './realtime/session-reducer.js';
export type { RealtimeEffect, RealtimeInput } from './realtime/session-actions.js';
export { AGENT_IDENTITY } from './contract/wire.js';
export type { ParticipantView } from './realtime/agent-participant.js';
export { AgentError } from './realtime/agent-error.js';
export type { ClientToolContext, ClientToolHandler, PendingClientToolCall } from './realtime/client-tools.js';
export { AbortError, ConnectionError } from './errors/transport-errors.js';
export type { ConnectionErrorReason } from './errors/transport-errors.js';
export type {
  ClientToolCall,
  DataPacket,
  SDKAgentState,
  SDKConnectionState,
  SDKConnectOptions,
  SDKSendChatMessageParams,
  SDKSessionTranscription,
} from './contract/sdk.js';
