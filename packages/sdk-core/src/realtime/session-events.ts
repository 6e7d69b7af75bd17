import type { AgentTurnMetrics, DataPacket, SDKAgentState, SDKConnectionState, SDKSessionTranscription } from '../contract/sdk.js';
import type { RealtimeEnd, RealtimeStatus } from './session-state.js';

/**
 * The typed events of a {@link RealtimeSession} (eventemitter3). Everything here is also visible in the
 * snapshot; events suit code that reacts to changes rather than renders state.
 *
 * @example
 * session.on('transcription', (utterance) => log(utterance.agent ? 'agent' : 'me', utterance.text));
 * session.on('ended', ({ reason }) => { if (reason === 'time_limit_exceeded') showTimeUp() });
 */
export interface RealtimeSessionEvents {
  statusChanged: (status: RealtimeStatus) => void;
  connectionStateChanged: (state: SDKConnectionState) => void;
  agentStateChanged: (state: SDKAgentState | undefined) => void;
  remainingSecondsChanged: (seconds: number | null) => void;
  /** Once per connection, when the seconds left reach `remainingSecondsWarningAt` (default 60): time is almost up. */
  remainingSecondsWarning: (remainingSeconds: number) => void;
  /** An utterance was added or replaced (same `id` and `agent`). */
  transcription: (transcription: SDKSessionTranscription) => void;
  /** Connection failures, agent `error` packets, microphone, camera (`MediaDeviceError`), screen share and noise-suppression failures. */
  error: (error: Error) => void;
  /** The session is no longer connected, and why. */
  ended: (end: RealtimeEnd) => void;
  microphoneChanged: (enabled: boolean) => void;
  /** The camera is now published (true) or not (false). */
  cameraChanged: (enabled: boolean) => void;
  /** The screen share started (true) or stopped (false), also from the browser's own "Stop sharing" button. */
  screenShareChanged: (enabled: boolean) => void;
  /** The agent's video track was subscribed (true: read `agentVideoStream()`) or went away (false). */
  agentVideoChanged: (available: boolean) => void;
  /** Noise suppression started (true) or stopped (false) running on the published microphone. */
  noiseSuppressionChanged: (active: boolean) => void;
  /** The agent's speech was silenced (true) or plays again (false) here; its text keeps arriving. */
  agentSpeechMutedChanged: (muted: boolean) => void;
  /** False: the browser blocks playback until `startAudio()` is called from a user gesture. */
  audioPlaybackChanged: (canPlay: boolean) => void;
  /** A turn's latency as the human heard it (microphone speech end -> first agent audio), ms. */
  turnLatency: (latencyMs: number) => void;
  /** The agent's timings of a turn (`turn_metrics` topic). */
  agentTurnMetrics: (metrics: AgentTurnMetrics) => void;
  /** Every valid data packet from the agent, including topics the connector does not act on (`tool_call`, `runtime_api`). */
  dataPacket: (packet: DataPacket) => void;
}

export type RealtimeEventName = keyof RealtimeSessionEvents;

/** One event to emit, with its arguments, as the reducer describes it. */
export type RealtimeNotification = {
  [E in RealtimeEventName]: { name: E; args: Parameters<RealtimeSessionEvents[E]> };
}[RealtimeEventName];
