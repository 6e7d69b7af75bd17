/**
 * `@palaver/sdk-core/realtime`: the browser connector to a Palaver voice agent (over livekit-client).
 * Kept out of the `.` entry so REST-only apps never bundle livekit-client.
 *
 * @example
 * import { createRealtimeSession } from '@palaver/sdk-core/realtime';
 * const session = createRealtimeSession({ baseUrl: 'https://api.example.com' });
 * session.subscribe(() => console.log(session.getSnapshot().connectionState));
 * await session.connect({ token: usageToken, config });
 *
 * // An app run: its graph's pads over the run's runtime_api topic.
 * const run = createAppRun({ baseUrl: 'https://api.example.com' });
 * run.subscribePad('llm', 'text');
 * await run.connect({ token: usageToken, app: 'app_123' });
 * await run.pushValue('chat', 'output', 'Hello!');
 */
export { createRealtimeSession, RealtimeSession } from './realtime/realtime-session.js';
export type { AudioDeviceKind, AudioSource, RealtimeSessionOptions } from './realtime/realtime-session.js';
export type { RealtimeSessionEvents } from './realtime/session-events.js';
export { initialRealtimeState } from './realtime/session-state.js';
export type { RealtimeEnd, RealtimeEndReason, RealtimePhase, RealtimeState, RealtimeStateBase, RealtimeStatus } from './realtime/session-state.js';
export { reduceRealtime } from './realtime/session-reducer.js';
export type { RealtimeReducerSettings, RealtimeTransition } from './realtime/session-reducer.js';
export type { RealtimeEffect, RealtimeInput } from './realtime/session-actions.js';
export { AGENT_IDENTITY } from './contract/wire.js';
export type { ParticipantView } from './realtime/agent-participant.js';
export { AgentError } from './realtime/agent-error.js';
export type { ClientToolContext, ClientToolHandler, PendingClientToolCall } from './realtime/client-tools.js';
export { AbortError, ConnectionError } from './errors/transport-errors.js';
export { MediaDeviceError } from './realtime/media-device-error.js';
export type { MediaCapture, MediaDeviceErrorReason } from './realtime/media-device-error.js';
export type { MediaCaptureState } from './realtime/media-capture.js';
export type { ConnectionErrorReason } from './errors/transport-errors.js';
export { TurnLatencyTracker } from './realtime/turn-latency.js';
export type {
  AgentTurnMetrics,
  EndOfTurnReading,
  EndOfTurnReason,
  ClientToolCall,
  DataPacket,
  SDKAgentState,
  SDKConnectionState,
  SDKResumeReason,
  SDKConnectOptions,
  SDKSendChatMessageParams,
  SDKSessionTranscription,
} from './contract/sdk.js';
export { AppRun, createAppRun } from './realtime/app-run/app-run.js';
export type { AppRunConnectOptions, AppRunEvents, AppRunOptions } from './realtime/app-run/app-run.js';
export { padKey } from './realtime/app-run/app-run-state.js';
export type { AppRunState } from './realtime/app-run/app-run-state.js';
export { RuntimeApiClient, RuntimeApiError } from './realtime/app-run/runtime-api-client.js';
export type { RuntimeApiClientOptions, RuntimeReply } from './realtime/app-run/runtime-api-client.js';
export { RUNTIME_API_TOPIC } from './contract/wire.js';
export type { RuntimeApiEnvelope, RuntimeEventPayload, RuntimeLogItem, RuntimeRequestPayload } from './contract/graph/runtime-api.js';
export { TRIGGER, plainPadValue, textContextMessage, contextMessageText } from './contract/graph/pad-value-functions.js';
export type { ClientPadValue, GraphContextMessage } from './contract/graph/pad-values.js';
export { TimeoutError } from './errors/transport-errors.js';
