import type { RealtimeSessionConfigCreate } from '../contract/realtime.js';
import type { DataPacket, SDKConnectOptions, SDKResumeReason, SDKSessionTranscription, ToolCallMessage } from '../contract/sdk.js';
import type { ParticipantView } from './agent-participant.js';
import type { RealtimeNotification } from './session-events.js';

/** How LiveKit said the room connection ended, in the connector's terms. */
export type RoomDisconnectCause = 'client' | 'room_closed' | 'removed' | 'connection_lost';

/** What happened: requests from the app, results of effects, and room events. */
export type RealtimeInput =
  | { type: 'connect_requested'; options: SDKConnectOptions }
  | { type: 'disconnect_requested' }
  | { type: 'session_started'; attempt: number; sessionId: string; url: string; token: string }
  | { type: 'room_joined'; attempt: number; participants: ParticipantView[]; roomMetadata: string | undefined; canPlayAudio: boolean }
  | { type: 'connect_failed'; attempt: number; error: Error }
  | { type: 'participant_joined'; attempt: number; participant: ParticipantView }
  | { type: 'participant_updated'; attempt: number; participant: ParticipantView }
  | { type: 'participant_left'; attempt: number; identity: string }
  | { type: 'data_received'; attempt: number; packet: DataPacket; from: ParticipantView | undefined }
  /** A transcript line read from LiveKit text streams (`lk.transcription`, `lk.chat`; decision 0123). */
  | { type: 'transcript_streamed'; attempt: number; transcription: SDKSessionTranscription }
  | { type: 'room_metadata_changed'; attempt: number; metadata: string }
  | { type: 'reconnecting'; attempt: number; reason: SDKResumeReason }
  | { type: 'reconnected'; attempt: number; participants: ParticipantView[] }
  | { type: 'room_disconnected'; attempt: number; cause: RoomDisconnectCause; detail?: string }
  | { type: 'agent_wait_expired'; attempt: number }
  | { type: 'microphone_requested'; enabled: boolean }
  | { type: 'microphone_changed'; attempt: number; enabled: boolean }
  | { type: 'microphone_failed'; attempt: number; error: Error }
  | { type: 'agent_audio_changed'; attempt: number; subscribed: boolean }
  | { type: 'camera_requested'; enabled: boolean }
  | { type: 'camera_changed'; attempt: number; enabled: boolean }
  | { type: 'camera_failed'; attempt: number; error: Error }
  | { type: 'camera_device_changed'; deviceId: string }
  | { type: 'screen_share_requested'; enabled: boolean }
  | { type: 'screen_share_changed'; attempt: number; enabled: boolean }
  | { type: 'screen_share_failed'; attempt: number; error: Error }
  | { type: 'agent_video_changed'; attempt: number; subscribed: boolean }
  | { type: 'agent_speech_mute_requested'; muted: boolean }
  | { type: 'noise_suppression_requested'; enabled: boolean }
  | { type: 'noise_suppression_changed'; attempt: number; active: boolean }
  | { type: 'noise_suppression_failed'; attempt: number; error: Error }
  | { type: 'audio_playback_changed'; attempt: number; canPlay: boolean }
  | { type: 'tool_call_settled'; attempt: number; callId: string }
  | { type: 'turn_latency_measured'; attempt: number; latencyMs: number };

/** A `tool_call_request` payload from the agent. */
export type ToolCallRequestPayload = Extract<ToolCallMessage, { type: 'tool_call_request' }>['payload'];

/** What the session shell must do; the reducer only describes it. */
export type RealtimeEffect =
  | { type: 'start_session'; attempt: number; token: string; config: RealtimeSessionConfigCreate }
  | { type: 'join_room'; attempt: number; url: string; token: string }
  | { type: 'leave_room'; attempt: number }
  | { type: 'set_microphone'; attempt: number; enabled: boolean }
  /** Publish (or unpublish) the camera. */
  | { type: 'set_camera'; attempt: number; enabled: boolean }
  /** Start (or stop) sharing the screen. */
  | { type: 'set_screen_share'; attempt: number; enabled: boolean }
  /** Turn noise suppression of the published microphone on or off. */
  | { type: 'set_noise_suppression'; attempt: number; enabled: boolean }
  /** Silence (or play again) the agent's audio here. */
  | { type: 'set_agent_speech_muted'; muted: boolean }
  | { type: 'schedule_agent_wait'; attempt: number }
  | { type: 'cancel_agent_wait' }
  /** Acknowledge and run a client-side tool call, answering `agentIdentity`. */
  | { type: 'run_tool_call'; attempt: number; agentIdentity: string; request: ToolCallRequestPayload }
  /** The agent cancelled a running client-side tool call. */
  | { type: 'cancel_tool_call'; callId: string }
  /** Ask the agent for the transcript lines last sent at or after `after` (`transcript_resume`), after a resume. */
  | { type: 'request_transcript_replay'; attempt: number; agentIdentity: string; after: string | null }
  | { type: 'emit'; notification: RealtimeNotification };
