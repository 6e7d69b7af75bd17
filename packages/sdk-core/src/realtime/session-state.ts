import type { AgentTurnMetrics, SDKAgentState, SDKConnectionState, SDKResumeReason, SDKSessionTranscription } from '../contract/sdk.js';
import type { PendingClientToolCall } from './client-tools.js';
import { captureState, type MediaCaptureState } from './media-capture.js';

/** Why a session is no longer connected. */
export type RealtimeEndReason =
  /** `disconnect()` was called. */
  | 'client'
  /** The server closed the room: the session was ended (API, agent) or the room was deleted. */
  | 'session_ended'
  /** The agent reported the session's time limit, then left or closed the room. */
  | 'time_limit_exceeded'
  /** The agent reported the human's usage limit, then left or closed the room. */
  | 'usage_limit_exceeded'
  /** No agent joined within `agentTimeoutMs` (or it left and did not come back). */
  | 'agent_unavailable'
  /** Removed from the room, or the same identity joined elsewhere. */
  | 'removed'
  /** The connection dropped and LiveKit's reconnection gave up. */
  | 'connection_lost'
  /** Connecting failed (session start refused, room unreachable, token rejected). */
  | 'failed';

export interface RealtimeEnd {
  reason: RealtimeEndReason;
  /** Set for the failures (`failed`, `connection_lost`, `agent_unavailable`, `removed`). */
  error?: Error;
}

/** Where the connection is; `reconnecting` shows as `resuming` (a Palaver extension) in {@link SDKConnectionState}. */
export type RealtimeStatus = 'not_connected' | 'connecting' | 'waiting_for_agent' | 'connected' | 'reconnecting';

/** What every status carries. */
export interface RealtimeStateBase {
  /** The spec's connection state, derived from `status` (`reconnecting` -> `resuming`, a Palaver extension). */
  connectionState: SDKConnectionState;
  /** Counts connect calls; results of an earlier attempt are ignored. */
  attempt: number;
  /** The realtime session id (from the start response or the room metadata). */
  sessionId: string | undefined;
  /**
   * What the agent is doing; undefined while no agent is in the room. The terminal states
   * (`time_limit_exceeded`, `usage_limit_exceeded`) stay after the session ended.
   */
  agentState: SDKAgentState | undefined;
  /** Seconds left when the session has a time limit; null otherwise. */
  remainingSeconds: number | null;
  /**
   * True once `remainingSeconds` reached the session's warning threshold (`remainingSecondsWarningAt`, default
   * 60 s) in this connection; the `remainingSecondsWarning` event fires at that moment. Reset by the next connect.
   */
  remainingSecondsWarning: boolean;
  /** Utterances of both sides, upserted by (`id`, `agent`), ordered by `created_at`. */
  transcriptions: readonly SDKSessionTranscription[];
  /** `wanted`: what the app asked for; `enabled`: what is published and unmuted right now. */
  microphone: { readonly wanted: boolean; readonly enabled: boolean };
  /**
   * Noise suppression of the microphone (RNNoise in the browser, decision 0116). `wanted`: what the app asked for
   * (`noiseSuppression` option, default true, `setNoiseSuppression`; kept across connects); `active`: it runs on the published
   * microphone right now (false until the microphone is published and the suppressor loaded).
   */
  noiseSuppression: { readonly wanted: boolean; readonly active: boolean };
  /**
   * The camera (`setCameraEnabled`; for an app run named `<publish node>:video`). `wanted` is kept across connects;
   * `error` is the last `MediaDeviceError`.
   */
  camera: MediaCaptureState;
  /** The camera chosen with `switchCamera` (undefined: the browser's default); kept across connects. */
  cameraDevice: string | undefined;
  /** The screen share (`startScreenShare`, with the tab's or system's audio when the browser offers it); never kept across connects. */
  screenShare: MediaCaptureState;
  /** The agent publishes video (an app run's Output `video`) and it is subscribed: read it with `agentVideoStream()`. */
  agentVideo: boolean;
  /** False when the browser blocks playback until a user gesture calls `startAudio()`. */
  canPlayAudio: boolean;
  /**
   * The agent's speech is silenced here (`setAgentSpeechMuted`); its transcriptions, states and data still
   * arrive. Kept across connects.
   */
  agentSpeechMuted: boolean;
  /** The agent's audio track is subscribed and attached to an audio element. */
  agentAudio: boolean;
  /** The last error (connection, agent `error` topic, microphone, camera, screen share); cleared by the next connect. */
  error: Error | undefined;
  /** Client-side tool calls the agent asked for that are running in this app (`onToolCall` handlers). */
  toolCalls: readonly PendingClientToolCall[];
  /**
   * Turn latency measured here, per answered turn, oldest first (the last 50): from the last moment the
   * microphone carried speech to the first agent audio heard, in ms.
   */
  turnLatencies: readonly number[];
  /** The agent's own timings of each turn (`turn_metrics` topic), oldest first (the last 50). */
  agentTurns: readonly AgentTurnMetrics[];
}

/** The phase-specific part, tagged by `status`. */
export type RealtimePhase =
  | { status: 'not_connected'; ended: RealtimeEnd | undefined }
  | { status: 'connecting'; step: 'starting_session' | 'joining_room' }
  | { status: 'waiting_for_agent' }
  | { status: 'connected'; agentIdentity: string }
  /** The connection dropped and LiveKit is resuming it; `reason` says what dropped. */
  | { status: 'reconnecting'; agentIdentity: string | undefined; reason: SDKResumeReason };

/**
 * A realtime session's state: an immutable snapshot, replaced (never mutated) on every change.
 *
 * @example
 * if (state.status === 'connected') show(state.agentState, state.transcriptions);
 * if (state.status === 'not_connected' && state.ended?.reason === 'time_limit_exceeded') showTimeUp();
 */
export type RealtimeState = RealtimeStateBase & RealtimePhase;

export function connectionStateOf(status: RealtimeStatus): SDKConnectionState {
  return status === 'reconnecting' ? 'resuming' : status;
}

/** The state before the first connect. */
export function initialRealtimeState(
  options: { microphone?: boolean; camera?: boolean; agentSpeechMuted?: boolean; noiseSuppression?: boolean } = {},
): RealtimeState {
  return Object.freeze({
    status: 'not_connected',
    ended: undefined,
    connectionState: 'not_connected',
    attempt: 0,
    sessionId: undefined,
    agentState: undefined,
    remainingSeconds: null,
    remainingSecondsWarning: false,
    transcriptions: Object.freeze([]),
    microphone: Object.freeze({ wanted: options.microphone ?? true, enabled: false }),
    noiseSuppression: Object.freeze({ wanted: options.noiseSuppression ?? true, active: false }),
    camera: captureState(options.camera ?? false),
    cameraDevice: undefined,
    screenShare: captureState(false),
    agentVideo: false,
    canPlayAudio: true,
    agentSpeechMuted: options.agentSpeechMuted ?? false,
    agentAudio: false,
    error: undefined,
    toolCalls: Object.freeze([]),
    turnLatencies: Object.freeze([]),
    agentTurns: Object.freeze([]),
  });
}
