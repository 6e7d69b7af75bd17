import type { SDKAgentState, SDKResumeReason, SDKSessionTranscription, ToolCallMessage } from '../contract/sdk.js';
import { ERROR_TOPIC, MESSAGE_TOPIC, TOOL_CALL_TOPIC, TURN_METRICS_TOPIC } from '../contract/wire.js';
import { ConnectionError } from '../errors/transport-errors.js';
import { AgentError } from './agent-error.js';
import { captureChanged, captureEnded, captureFailed, captureRequested, captureReset } from './media-capture.js';
import { agentStatusOf, isAgentParticipant, isTerminalAgentState, type ParticipantView } from './agent-participant.js';
import type { RealtimeEffect, RealtimeInput, RoomDisconnectCause } from './session-actions.js';
import type { RealtimeNotification } from './session-events.js';
import {
  connectionStateOf,
  type RealtimeEnd,
  type RealtimeEndReason,
  type RealtimePhase,
  type RealtimeState,
  type RealtimeStateBase,
} from './session-state.js';
import { upsertTranscription } from './transcriptions.js';

/** The next state and what the shell must do about it. */
export interface RealtimeTransition {
  state: RealtimeState;
  effects: RealtimeEffect[];
}

const unchanged = (state: RealtimeState): RealtimeTransition => ({ state, effects: [] });

/** Turns kept in the snapshot's `turnLatencies` and `agentTurns`. */
const KEPT_TURNS = 50;
function appended<T>(list: readonly T[], item: T): readonly T[] {
  return Object.freeze([...list, item].slice(-KEPT_TURNS));
}

function baseOf(state: RealtimeState): RealtimeStateBase {
  const {
    connectionState,
    attempt,
    sessionId,
    agentState,
    remainingSeconds,
    remainingSecondsWarning,
    transcriptions,
    microphone,
    noiseSuppression,
    camera,
    cameraDevice,
    screenShare,
    agentVideo,
    canPlayAudio,
    agentSpeechMuted,
    agentAudio,
    error,
    toolCalls,
    turnLatencies,
    agentTurns,
  } = state;
  return {
    connectionState,
    attempt,
    sessionId,
    agentState,
    remainingSeconds,
    remainingSecondsWarning,
    transcriptions,
    microphone,
    noiseSuppression,
    camera,
    cameraDevice,
    screenShare,
    agentVideo,
    canPlayAudio,
    agentSpeechMuted,
    agentAudio,
    error,
    toolCalls,
    turnLatencies,
    agentTurns,
  };
}

/** Moves to another phase (dropping the old phase's fields) and changes base fields. */
function enter(state: RealtimeState, phase: RealtimePhase, changes: Partial<RealtimeStateBase> = {}): RealtimeState {
  return { ...baseOf(state), ...changes, ...phase };
}

/** Changes base fields, staying in the same phase; the same object when nothing differs. */
function update(state: RealtimeState, changes: Partial<RealtimeStateBase>): RealtimeState {
  const differs = (Object.keys(changes) as Array<keyof RealtimeStateBase>).some((key) => !Object.is(state[key], changes[key]));
  return differs ? { ...state, ...changes } : state;
}

const emit = (notification: RealtimeNotification): RealtimeEffect => ({ type: 'emit', notification });

function isJoined(state: RealtimeState): state is RealtimeState & { status: 'waiting_for_agent' | 'connected' | 'reconnecting' } {
  return state.status === 'waiting_for_agent' || state.status === 'connected' || state.status === 'reconnecting';
}

/** The agent's declared state; a terminal state is never replaced by a non-terminal one. */
function withAgentStatus(state: RealtimeState, participant: ParticipantView): Partial<RealtimeStateBase> {
  const status = agentStatusOf(participant);
  if (isTerminalAgentState(state.agentState) && !isTerminalAgentState(status?.agentState)) return {};
  if (!status) return state.agentState === undefined ? { agentState: 'warmup' } : {};
  return {
    agentState: status.agentState,
    ...(status.remainingSeconds !== undefined ? { remainingSeconds: status.remainingSeconds } : {}),
  };
}

/** Joined (or rejoined) with these participants: connected when the agent is among them. */
function arrive(state: RealtimeState, participants: ParticipantView[], changes: Partial<RealtimeStateBase> = {}): RealtimeTransition {
  const agent = participants.find(isAgentParticipant);
  if (agent) {
    const next = enter(state, { status: 'connected', agentIdentity: agent.identity }, changes);
    return { state: update(next, withAgentStatus(next, agent)), effects: [{ type: 'cancel_agent_wait' }] };
  }
  const agentState = isTerminalAgentState(state.agentState) ? state.agentState : undefined;
  return {
    state: enter(state, { status: 'waiting_for_agent' }, { agentState, ...changes }),
    effects: [{ type: 'schedule_agent_wait', attempt: state.attempt }],
  };
}

/** A line as the session leaves it: final; the agent's, when it was still being said, interrupted. */
function endedLine(line: SDKSessionTranscription): SDKSessionTranscription {
  if (line.final) return line;
  return Object.freeze(line.agent ? { ...line, final: true, interrupted: true } : { ...line, final: true });
}

/** Leaves the joined phases for `not_connected`, keeping the transcript and a terminal agent state. */
function end(state: RealtimeState, reason: RealtimeEndReason, error?: Error): RealtimeTransition {
  const ended: RealtimeEnd = error ? { reason, error } : { reason };
  const agentState: SDKAgentState | undefined = isTerminalAgentState(state.agentState) ? state.agentState : undefined;
  // Lines still being spoken or transcribed end with what was said so far (the agent's as interrupted); the
  // time limit no longer runs.
  const unfinished = state.transcriptions.some((line) => !line.final);
  const next = enter(
    state,
    { status: 'not_connected', ended },
    {
      agentState,
      agentAudio: false,
      remainingSeconds: null,
      ...(unfinished ? { transcriptions: Object.freeze(state.transcriptions.map(endedLine)) } : {}),
      ...(state.toolCalls.length > 0 ? { toolCalls: Object.freeze([]) } : {}),
      microphone: Object.freeze({ wanted: state.microphone.wanted, enabled: false }),
      noiseSuppression: Object.freeze({ wanted: state.noiseSuppression.wanted, active: false }),
      camera: captureEnded(state.camera, true),
      screenShare: captureEnded(state.screenShare, false),
      agentVideo: false,
      ...(error ? { error } : {}),
    },
  );
  return {
    state: next,
    effects: [
      { type: 'cancel_agent_wait' },
      { type: 'leave_room', attempt: state.attempt },
      ...(error ? [emit({ name: 'error', args: [error] })] : []),
      emit({ name: 'ended', args: [ended] }),
    ],
  };
}

function sessionIdFromRoomMetadata(metadata: string | undefined): string | undefined {
  if (!metadata) return undefined;
  try {
    const session = (JSON.parse(metadata) as { session?: unknown }).session;
    return typeof session === 'string' && session.length > 0 ? session : undefined;
  } catch {
    return undefined;
  }
}

function disconnectedEnd(state: RealtimeState, cause: RoomDisconnectCause, detail: string | undefined): RealtimeTransition {
  const suffix = detail ? ` (${detail})` : '';
  if (isTerminalAgentState(state.agentState)) return end(state, state.agentState);
  switch (cause) {
    case 'client':
      return end(state, 'client');
    case 'room_closed':
      return end(state, 'session_ended');
    case 'removed':
      return end(state, 'removed', new ConnectionError('closed', `removed from the session's room${suffix}`));
    case 'connection_lost':
      return end(state, 'connection_lost', new ConnectionError('network', `lost the connection to the session's room${suffix}`));
  }
}

/** A transcript line upserted by (`id`, `agent`), with its `transcription` event (and `also`, after it). */
function receiveLine(state: RealtimeState, line: SDKSessionTranscription, ...also: RealtimeEffect[]): RealtimeTransition {
  if (state.status === 'not_connected') return unchanged(state);
  const transcription = Object.freeze(line);
  const transcriptions = Object.freeze(upsertTranscription(state.transcriptions, transcription));
  return { state: update(state, { transcriptions }), effects: [emit({ name: 'transcription', args: [transcription] }), ...also] };
}

function receiveData(state: RealtimeState, input: Extract<RealtimeInput, { type: 'data_received' }>): RealtimeTransition {
  if (state.status === 'not_connected') return unchanged(state);
  const packet = input.packet;
  // No visible sender: the platform (its hidden observer replaying a worker's lines, decision 0123), for lines only.
  if (!input.from) return packet.topic === MESSAGE_TOPIC ? receiveLine(state, packet.payload) : unchanged(state);
  if (!isAgentParticipant(input.from)) return unchanged(state);
  const delivered = emit({ name: 'dataPacket', args: [packet] });
  if (packet.topic === MESSAGE_TOPIC) return receiveLine(state, packet.payload, delivered);
  if (packet.topic === ERROR_TOPIC) {
    const error = new AgentError(packet.payload.message);
    return { state: update(state, { error }), effects: [emit({ name: 'error', args: [error] }), delivered] };
  }
  if (packet.topic === TOOL_CALL_TOPIC) return receiveToolCall(state, packet.payload, input.from.identity, delivered);
  if (packet.topic === TURN_METRICS_TOPIC) {
    const metrics = Object.freeze(packet.payload);
    return {
      state: update(state, { agentTurns: appended(state.agentTurns, metrics) }),
      effects: [emit({ name: 'agentTurnMetrics', args: [metrics] }), delivered],
    };
  }
  return { state, effects: [delivered] };
}

/** A client-side tool request from the agent starts a call (once per id); a `cancel` stops it. */
function receiveToolCall(state: RealtimeState, message: ToolCallMessage, agentIdentity: string, delivered: RealtimeEffect): RealtimeTransition {
  if (message.type === 'tool_call_request') {
    const { tool_call: call, tool_definition: definition } = message.payload;
    if (state.toolCalls.some((pending) => pending.call.id === call.id)) return { state, effects: [delivered] };
    const toolCalls = Object.freeze([...state.toolCalls, Object.freeze({ call, definition })]);
    return {
      state: update(state, { toolCalls }),
      effects: [delivered, { type: 'run_tool_call', attempt: state.attempt, agentIdentity, request: message.payload }],
    };
  }
  if (message.type === 'cancel') {
    if (!state.toolCalls.some((pending) => pending.call.id === message.call_id)) return { state, effects: [delivered] };
    const toolCalls = Object.freeze(state.toolCalls.filter((pending) => pending.call.id !== message.call_id));
    return { state: update(state, { toolCalls }), effects: [delivered, { type: 'cancel_tool_call', callId: message.call_id }] };
  }
  return { state, effects: [delivered] };
}

function agentLeft(state: RealtimeState, identity: string): RealtimeTransition {
  if (state.status === 'reconnecting' && state.agentIdentity === identity) {
    const agentState = isTerminalAgentState(state.agentState) ? state.agentState : undefined;
    return { state: enter(state, { status: 'reconnecting', agentIdentity: undefined, reason: state.reason }, { agentState }), effects: [] };
  }
  if (state.status !== 'connected' || state.agentIdentity !== identity) return unchanged(state);
  // After a terminal state the agent leaves for good: the session is over.
  if (isTerminalAgentState(state.agentState)) return end(state, state.agentState);
  return arrive(update(state, { remainingSeconds: null, agentAudio: false }), []);
}

function agentSeen(state: RealtimeState, participant: ParticipantView): RealtimeTransition {
  if (state.status === 'waiting_for_agent' && isAgentParticipant(participant)) return arrive(state, [participant]);
  const known = (state.status === 'connected' || state.status === 'reconnecting') && state.agentIdentity === participant.identity;
  if (known) return { state: update(state, withAgentStatus(state, participant)), effects: [] };
  if (state.status === 'reconnecting' && state.agentIdentity === undefined && isAgentParticipant(participant)) {
    const next = enter(state, { status: 'reconnecting', agentIdentity: participant.identity, reason: state.reason });
    return { state: update(next, withAgentStatus(next, participant)), effects: [] };
  }
  return unchanged(state);
}

/** The connection dropped: `resuming` with why (a media drop outranks a signalling one). */
function resuming(state: RealtimeState, reason: SDKResumeReason): RealtimeTransition {
  if (state.status === 'connected') return { state: enter(state, { status: 'reconnecting', agentIdentity: state.agentIdentity, reason }), effects: [] };
  if (state.status === 'waiting_for_agent') {
    return { state: enter(state, { status: 'reconnecting', agentIdentity: undefined, reason }), effects: [{ type: 'cancel_agent_wait' }] };
  }
  if (state.status === 'reconnecting' && reason === 'network' && state.reason !== 'network') return { state: enter(state, { ...state, reason }), effects: [] };
  return unchanged(state);
}

/**
 * Back with the agent after a resume: ask it for the lines sent since the oldest line not yet final here (else
 * the newest line), which the drop may have lost (`transcript_resume`).
 */
function withTranscriptReplay(step: RealtimeTransition): RealtimeTransition {
  const state = step.state;
  if (state.status !== 'connected') return step;
  const byTime = [...state.transcriptions].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  const after = (byTime.find((line) => !line.final) ?? byTime.at(-1))?.created_at ?? null;
  return { state, effects: [...step.effects, { type: 'request_transcript_replay', attempt: state.attempt, agentIdentity: state.agentIdentity, after }] };
}

function transition(state: RealtimeState, input: RealtimeInput): RealtimeTransition {
  switch (input.type) {
    case 'connect_requested': {
      if (state.status !== 'not_connected') return unchanged(state);
      const attempt = state.attempt + 1;
      const fresh: Partial<RealtimeStateBase> = {
        attempt,
        sessionId: undefined,
        agentState: undefined,
        remainingSeconds: null,
        remainingSecondsWarning: false,
        transcriptions: Object.freeze([]),
        microphone: Object.freeze({ wanted: state.microphone.wanted, enabled: false }),
        noiseSuppression: Object.freeze({ wanted: state.noiseSuppression.wanted, active: false }),
        camera: captureReset(state.camera, state.camera.wanted),
        screenShare: captureReset(state.screenShare, false),
        agentVideo: false,
        canPlayAudio: true,
        agentAudio: false,
        error: undefined,
        toolCalls: Object.freeze([]),
        turnLatencies: Object.freeze([]),
        agentTurns: Object.freeze([]),
      };
      const options = input.options;
      if ('connection_details' in options) {
        const { url, token } = options.connection_details;
        return { state: enter(state, { status: 'connecting', step: 'joining_room' }, fresh), effects: [{ type: 'join_room', attempt, url, token }] };
      }
      return {
        state: enter(state, { status: 'connecting', step: 'starting_session' }, fresh),
        effects: [{ type: 'start_session', attempt, token: options.token, config: options.config }],
      };
    }
    case 'session_started':
      if (state.status !== 'connecting' || state.step !== 'starting_session') return unchanged(state);
      return {
        state: enter(state, { status: 'connecting', step: 'joining_room' }, { sessionId: input.sessionId }),
        effects: [{ type: 'join_room', attempt: state.attempt, url: input.url, token: input.token }],
      };
    case 'room_joined': {
      if (state.status !== 'connecting') return unchanged(state);
      const arrived = arrive(state, input.participants, {
        sessionId: state.sessionId ?? sessionIdFromRoomMetadata(input.roomMetadata),
        canPlayAudio: input.canPlayAudio,
      });
      const microphone: RealtimeEffect[] = state.microphone.wanted ? [{ type: 'set_microphone', attempt: state.attempt, enabled: true }] : [];
      if (!state.camera.wanted) return { state: arrived.state, effects: [...arrived.effects, ...microphone] };
      return {
        state: update(arrived.state, { camera: captureRequested(state.camera, true, true) }),
        effects: [...arrived.effects, ...microphone, { type: 'set_camera', attempt: state.attempt, enabled: true }],
      };
    }
    case 'connect_failed':
      return state.status === 'connecting' ? end(state, 'failed', input.error) : unchanged(state);
    case 'disconnect_requested':
      return state.status === 'not_connected' ? unchanged(state) : end(state, 'client');
    case 'participant_joined':
    case 'participant_updated':
      return agentSeen(state, input.participant);
    case 'participant_left':
      return agentLeft(state, input.identity);
    case 'data_received':
      return receiveData(state, input);
    case 'transcript_streamed':
      return receiveLine(state, input.transcription);
    case 'room_metadata_changed': {
      const sessionId = sessionIdFromRoomMetadata(input.metadata);
      if (state.status === 'not_connected' || state.sessionId !== undefined || !sessionId) return unchanged(state);
      return { state: update(state, { sessionId }), effects: [] };
    }
    case 'reconnecting':
      return resuming(state, input.reason);
    case 'reconnected':
      return state.status === 'reconnecting' ? withTranscriptReplay(arrive(state, input.participants)) : unchanged(state);
    case 'room_disconnected':
      // While joining, LiveKit emits Disconnected before `connect()` rejects with the actual cause
      // (e.g. a refused token): the join's own failure (`connect_failed`) ends the attempt.
      if (state.status === 'not_connected' || state.status === 'connecting') return unchanged(state);
      return disconnectedEnd(state, input.cause, input.detail);
    case 'agent_wait_expired':
      if (state.status !== 'waiting_for_agent') return unchanged(state);
      return end(state, 'agent_unavailable', new ConnectionError('agent_unavailable', 'no agent joined the session in time'));
    case 'microphone_requested': {
      const microphone = Object.freeze({ wanted: input.enabled, enabled: state.microphone.enabled });
      const apply: RealtimeEffect[] = isJoined(state) ? [{ type: 'set_microphone', attempt: state.attempt, enabled: input.enabled }] : [];
      return { state: state.microphone.wanted === input.enabled ? state : update(state, { microphone }), effects: apply };
    }
    case 'microphone_changed':
      if (state.microphone.enabled === input.enabled) return unchanged(state);
      return { state: update(state, { microphone: Object.freeze({ wanted: state.microphone.wanted, enabled: input.enabled }) }), effects: [] };
    case 'microphone_failed':
      return {
        state: update(state, { error: input.error, microphone: Object.freeze({ wanted: false, enabled: false }) }),
        effects: [emit({ name: 'error', args: [input.error] })],
      };
    case 'camera_requested': {
      const joined = isJoined(state);
      const apply: RealtimeEffect[] = joined ? [{ type: 'set_camera', attempt: state.attempt, enabled: input.enabled }] : [];
      return { state: update(state, { camera: captureRequested(state.camera, input.enabled, joined) }), effects: apply };
    }
    case 'camera_changed':
    case 'screen_share_changed': {
      if (state.status === 'not_connected') return unchanged(state);
      const key = input.type === 'camera_changed' ? 'camera' : 'screenShare';
      return { state: update(state, { [key]: captureChanged(state[key], input.enabled) }), effects: [] };
    }
    case 'camera_failed':
    case 'screen_share_failed': {
      const key = input.type === 'camera_failed' ? 'camera' : 'screenShare';
      return { state: update(state, { error: input.error, [key]: captureFailed(input.error) }), effects: [emit({ name: 'error', args: [input.error] })] };
    }
    case 'camera_device_changed':
      return state.cameraDevice === input.deviceId ? unchanged(state) : { state: update(state, { cameraDevice: input.deviceId }), effects: [] };
    case 'screen_share_requested': {
      // A screen share needs the page's user gesture: it is never postponed to a later join.
      if (!isJoined(state)) return unchanged(state);
      const screenShare = captureRequested(state.screenShare, input.enabled, true);
      return { state: update(state, { screenShare }), effects: [{ type: 'set_screen_share', attempt: state.attempt, enabled: input.enabled }] };
    }
    case 'agent_video_changed':
      return state.agentVideo === input.subscribed ? unchanged(state) : { state: update(state, { agentVideo: input.subscribed }), effects: [] };
    case 'noise_suppression_requested': {
      const apply: RealtimeEffect[] = isJoined(state) ? [{ type: 'set_noise_suppression', attempt: state.attempt, enabled: input.enabled }] : [];
      const noiseSuppression = Object.freeze({ wanted: input.enabled, active: state.noiseSuppression.active });
      return { state: state.noiseSuppression.wanted === input.enabled ? state : update(state, { noiseSuppression }), effects: apply };
    }
    case 'noise_suppression_changed':
      if (state.status === 'not_connected' || state.noiseSuppression.active === input.active) return unchanged(state);
      return { state: update(state, { noiseSuppression: Object.freeze({ wanted: state.noiseSuppression.wanted, active: input.active }) }), effects: [] };
    case 'noise_suppression_failed':
      return {
        state: update(state, { error: input.error, noiseSuppression: Object.freeze({ wanted: state.noiseSuppression.wanted, active: false }) }),
        effects: [emit({ name: 'error', args: [input.error] })],
      };
    case 'agent_speech_mute_requested':
      if (state.agentSpeechMuted === input.muted) return unchanged(state);
      return { state: update(state, { agentSpeechMuted: input.muted }), effects: [{ type: 'set_agent_speech_muted', muted: input.muted }] };
    case 'agent_audio_changed':
      return state.agentAudio === input.subscribed ? unchanged(state) : { state: update(state, { agentAudio: input.subscribed }), effects: [] };
    case 'audio_playback_changed':
      return state.canPlayAudio === input.canPlay ? unchanged(state) : { state: update(state, { canPlayAudio: input.canPlay }), effects: [] };
    case 'turn_latency_measured':
      if (!isJoined(state)) return unchanged(state);
      return {
        state: update(state, { turnLatencies: appended(state.turnLatencies, input.latencyMs) }),
        effects: [emit({ name: 'turnLatency', args: [input.latencyMs] })],
      };
    case 'tool_call_settled': {
      if (!state.toolCalls.some((pending) => pending.call.id === input.callId)) return unchanged(state);
      return { state: update(state, { toolCalls: Object.freeze(state.toolCalls.filter((pending) => pending.call.id !== input.callId)) }), effects: [] };
    }
  }
}

/** Events for what changed between two states, in a fixed order. */
function changeNotifications(previous: RealtimeState, next: RealtimeState): RealtimeEffect[] {
  const effects: RealtimeEffect[] = [];
  if (previous.status !== next.status) effects.push(emit({ name: 'statusChanged', args: [next.status] }));
  if (previous.connectionState !== next.connectionState) effects.push(emit({ name: 'connectionStateChanged', args: [next.connectionState] }));
  if (previous.agentState !== next.agentState) effects.push(emit({ name: 'agentStateChanged', args: [next.agentState] }));
  if (previous.remainingSeconds !== next.remainingSeconds) effects.push(emit({ name: 'remainingSecondsChanged', args: [next.remainingSeconds] }));
  if (!previous.remainingSecondsWarning && next.remainingSecondsWarning && next.remainingSeconds !== null) {
    effects.push(emit({ name: 'remainingSecondsWarning', args: [next.remainingSeconds] }));
  }
  if (previous.microphone.enabled !== next.microphone.enabled) effects.push(emit({ name: 'microphoneChanged', args: [next.microphone.enabled] }));
  if (previous.camera.enabled !== next.camera.enabled) effects.push(emit({ name: 'cameraChanged', args: [next.camera.enabled] }));
  if (previous.screenShare.enabled !== next.screenShare.enabled) effects.push(emit({ name: 'screenShareChanged', args: [next.screenShare.enabled] }));
  if (previous.agentVideo !== next.agentVideo) effects.push(emit({ name: 'agentVideoChanged', args: [next.agentVideo] }));
  if (previous.noiseSuppression.active !== next.noiseSuppression.active)
    effects.push(emit({ name: 'noiseSuppressionChanged', args: [next.noiseSuppression.active] }));
  if (previous.agentSpeechMuted !== next.agentSpeechMuted) effects.push(emit({ name: 'agentSpeechMutedChanged', args: [next.agentSpeechMuted] }));
  if (previous.canPlayAudio !== next.canPlayAudio) effects.push(emit({ name: 'audioPlaybackChanged', args: [next.canPlayAudio] }));
  return effects;
}

/** How the reducer is tuned per session. */
export interface RealtimeReducerSettings {
  /** Seconds left at which `remainingSecondsWarning` turns on (0: never). */
  remainingSecondsWarningAt: number;
}

export const DEFAULT_REDUCER_SETTINGS: RealtimeReducerSettings = Object.freeze({ remainingSecondsWarningAt: 60 });

/** Turns the time warning on the first time the seconds left reach the threshold while in a session. */
function withTimeWarning(state: RealtimeState, settings: RealtimeReducerSettings): RealtimeState {
  const seconds = state.remainingSeconds;
  if (state.remainingSecondsWarning || seconds === null || !isJoined(state)) return state;
  return settings.remainingSecondsWarningAt > 0 && seconds <= settings.remainingSecondsWarningAt ? { ...state, remainingSecondsWarning: true } : state;
}

/**
 * The connector's state machine, pure: the next state and the effects to run (join, leave, microphone,
 * timers, events to emit). Inputs from an earlier connect attempt are ignored. Emitted events come first
 * (state changes, then explicit ones such as `transcription` and `ended`), then the work to do.
 *
 * @example
 * const { state, effects } = reduceRealtime(initialRealtimeState(), { type: 'connect_requested', options });
 */
export function reduceRealtime(state: RealtimeState, input: RealtimeInput, settings: RealtimeReducerSettings = DEFAULT_REDUCER_SETTINGS): RealtimeTransition {
  if ('attempt' in input && input.attempt !== state.attempt) return unchanged(state);
  const step = transition(state, input);
  if (step.state === state) return step;
  const next = Object.freeze({ ...withTimeWarning(step.state, settings), connectionState: connectionStateOf(step.state.status) }) as RealtimeState;
  const notifications = step.effects.filter((effect) => effect.type === 'emit');
  const work = step.effects.filter((effect) => effect.type !== 'emit');
  return { state: next, effects: [...changeNotifications(state, next), ...notifications, ...work] };
}
