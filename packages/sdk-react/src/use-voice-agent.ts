import { createContext, createElement, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import {
  createRealtimeSession,
  type AudioSource,
  type PendingClientToolCall,
  type RealtimeEnd,
  type RealtimeSession,
  type RealtimeSessionOptions,
  type RealtimeState,
  type RealtimeStatus,
  type SDKAgentState,
  type SDKConnectionState,
  type SDKResumeReason,
  type SDKConnectOptions,
  type SDKSendChatMessageParams,
  type SDKSessionTranscription,
  type AgentTurnMetrics,
} from '@palaver/sdk-core/realtime';
import { useOwnedConnection } from './use-owned-connection.js';
import { useClientTools } from './use-client-tool.js';
import { useSelectedSnapshot } from './use-selected-snapshot.js';

export interface UseVoiceAgentOptions extends RealtimeSessionOptions {
  /**
   * A session you created yourself (the other options but `tools` are then ignored). Without it the hook creates one
   * on first render (later option changes are ignored) and leaves the room on unmount.
   */
  session?: RealtimeSession;
  /** Connect on mount with these options, and leave on unmount. */
  connectOnMount?: SDKConnectOptions;
  /** Handlers of `client_app` tools by name, registered on the session while mounted (each render's are called). */
  tools?: RealtimeSessionOptions['tools'];
  /** Called once per connection when the seconds left reach `remainingSecondsWarningAt` (default 60): time is almost up. */
  onRemainingSecondsWarning?: (remainingSeconds: number) => void;
  /** With a selector: whether two selections are the same (default: shallow, each key or item by `Object.is`). */
  isEqual?: (a: unknown, b: unknown) => boolean;
}

/** The hook's view of a session; its functions are stable per session and may be selected and passed around unbound. */
export interface VoiceAgent {
  /** The framework-free session behind the hook (events, advanced use). */
  session: RealtimeSession;
  /** The whole snapshot, tagged by `status`. */
  state: RealtimeState;
  status: RealtimeStatus;
  connectionState: SDKConnectionState;
  /** While `connectionState` is `resuming`: what dropped (`network`: the media connection, `signal`: only signalling). */
  resumeReason: SDKResumeReason | undefined;
  /** Undefined while no agent is in the room; terminal states stay after the end. */
  agentState: SDKAgentState | undefined;
  /** Both sides' lines in order; the agent's line cut by the human (or the end of the call) has `interrupted: true`. */
  transcriptions: readonly SDKSessionTranscription[];
  /** Client-side tool calls running in this app right now. */
  toolCalls: readonly PendingClientToolCall[];
  /** The last turn's latency as heard here (microphone speech end -> first agent audio), ms; undefined before. */
  turnLatencyMs: number | undefined;
  /** Every answered turn's latency as heard here, oldest first. */
  turnLatencies: readonly number[];
  /** The agent's own timings of each turn (end-of-turn decision, STT, LLM, TTS), oldest first. */
  agentTurns: readonly AgentTurnMetrics[];
  remainingSeconds: number | null;
  /** True once the seconds left reached `remainingSecondsWarningAt` (default 60) in this connection. */
  remainingSecondsWarning: boolean;
  error: Error | undefined;
  /** Why the last session ended (undefined while connected or before the first). */
  ended: RealtimeEnd | undefined;
  sessionId: string | undefined;
  microphoneEnabled: boolean;
  /** The agent's speech is silenced here; its text answers still arrive. */
  agentSpeechMuted: boolean;
  /** Noise suppression of the microphone is wanted (the `noiseSuppression` option, `setNoiseSuppression`). */
  noiseSuppression: boolean;
  /** Noise suppression runs on the published microphone right now. */
  noiseSuppressionActive: boolean;
  /** False: show a button that calls `startAudio` (browsers that need a user gesture). */
  canPlayAudio: boolean;
  /** Connects; never rejects (a failure is in `error` and `ended`). */
  connect: (options: SDKConnectOptions) => Promise<void>;
  disconnect: () => Promise<void>;
  /** Rejects when the agent is not in the room or the text is empty. */
  sendChatMessage: (params: SDKSendChatMessageParams) => Promise<void>;
  /** Never rejects (a refused microphone is in `error`). */
  setMicrophoneEnabled: (enabled: boolean) => Promise<void>;
  /** Silences (true) or plays again (false) the agent's speech here; the agent keeps answering in text. */
  setAgentSpeechMuted: (muted: boolean) => void;
  /** Turns noise suppression of the microphone on or off, live; never rejects (a failure is in `error`). */
  setNoiseSuppression: (enabled: boolean) => Promise<void>;
  startAudio: () => Promise<void>;
  /** Volumes (0..1) right now; call from an animation frame for visualizers. */
  getAudioLevels: () => Record<AudioSource, number>;
  getFrequencyBands: (source: AudioSource, count?: number) => number[];
}

const ignore = () => {};

type VoiceAgentControls = Pick<
  VoiceAgent,
  | 'session'
  | 'connect'
  | 'disconnect'
  | 'sendChatMessage'
  | 'setMicrophoneEnabled'
  | 'setAgentSpeechMuted'
  | 'setNoiseSuppression'
  | 'startAudio'
  | 'getAudioLevels'
  | 'getFrequencyBands'
>;

/** The hook's functions: made once per session, so selecting them never re-renders. */
function controlsOf(session: RealtimeSession): VoiceAgentControls {
  return {
    session,
    connect: (connectOptions: SDKConnectOptions) => session.connect(connectOptions).catch(ignore),
    disconnect: () => session.disconnect(),
    sendChatMessage: (params: SDKSendChatMessageParams) => session.sendChatMessage(params),
    setMicrophoneEnabled: (enabled: boolean) => session.setMicrophoneEnabled(enabled).catch(ignore),
    setAgentSpeechMuted: (muted: boolean) => session.setAgentSpeechMuted(muted),
    setNoiseSuppression: (enabled: boolean) => session.setNoiseSuppression(enabled).catch(ignore),
    startAudio: () => session.startAudio(),
    getAudioLevels: () => session.getAudioLevels(),
    getFrequencyBands: (source: AudioSource, count?: number) => session.getFrequencyBands(source, count),
  };
}

/** What the hook returns for one snapshot. */
function voiceAgentOf(state: RealtimeState, controls: VoiceAgentControls): VoiceAgent {
  return {
    ...controls,
    state,
    status: state.status,
    connectionState: state.connectionState,
    resumeReason: state.status === 'reconnecting' ? state.reason : undefined,
    agentState: state.agentState,
    transcriptions: state.transcriptions,
    toolCalls: state.toolCalls,
    turnLatencyMs: state.turnLatencies.at(-1),
    turnLatencies: state.turnLatencies,
    agentTurns: state.agentTurns,
    remainingSeconds: state.remainingSeconds,
    remainingSecondsWarning: state.remainingSecondsWarning,
    error: state.error,
    ended: state.status === 'not_connected' ? state.ended : undefined,
    sessionId: state.sessionId,
    microphoneEnabled: state.microphone.enabled,
    agentSpeechMuted: state.agentSpeechMuted,
    noiseSuppression: state.noiseSuppression.wanted,
    noiseSuppressionActive: state.noiseSuppression.active,
    canPlayAudio: state.canPlayAudio,
  };
}

const SessionContext = createContext<RealtimeSession | null>(null);

/**
 * Shares a session with the components below: their `useVoiceAgent(selector)` read it (no `session` option needed),
 * each re-rendering only when its own selection changes.
 *
 * @example
 * const agent = useVoiceAgent();
 * return <VoiceAgentProvider session={agent.session}><AgentStateBadge /><Transcript /></VoiceAgentProvider>;
 */
export function VoiceAgentProvider({ session, children }: { session: RealtimeSession; children?: ReactNode }) {
  return createElement(SessionContext.Provider, { value: session }, children);
}

/**
 * A voice session with a Palaver agent: state, transcript and controls. Without a selector the component re-renders
 * on every change of the session; with one (`useVoiceAgent((agent) => agent.agentState)`) only when the selected
 * value changes (compared shallowly, as TanStack Query's `select` and zustand's `useShallow` do), so a badge does not
 * re-render for each transcription. The session is the `session` option's, else the nearest `<VoiceAgentProvider>`'s,
 * else one the hook creates (inside a `PalaverProvider`, on the provider client's base URL).
 *
 * @example
 * function Call({ usageToken, config }) {
 *   const agent = useVoiceAgent();
 *   if (agent.connectionState === 'not_connected')
 *     return <button onClick={() => agent.connect({ token: usageToken, config })}>Call</button>;
 *   return (
 *     <VoiceAgentProvider session={agent.session}>
 *       <AgentStateBadge />
 *       {!agent.canPlayAudio && <button onClick={agent.startAudio}>Enable audio</button>}
 *       <button onClick={agent.disconnect}>Hang up</button>
 *     </VoiceAgentProvider>
 *   );
 * }
 * function AgentStateBadge() {
 *   const agentState = useVoiceAgent((agent) => agent.agentState); // re-renders only when it changes
 *   return <p>{agentState}</p>;
 * }
 */
export function useVoiceAgent(options?: UseVoiceAgentOptions): VoiceAgent;
export function useVoiceAgent<T>(select: (agent: VoiceAgent) => T, options?: UseVoiceAgentOptions): T;
export function useVoiceAgent<T>(first?: UseVoiceAgentOptions | ((agent: VoiceAgent) => T), second?: UseVoiceAgentOptions): VoiceAgent | T {
  const select = typeof first === 'function' ? first : undefined;
  const options = (typeof first === 'function' ? second : first) ?? {};
  const shared = useContext(SessionContext);
  const session = useOwnedConnection({
    given: options.session ?? shared ?? undefined,
    options,
    connectOnMount: options.connectOnMount,
    create: (transport) => {
      const { session: _session, connectOnMount: _connect, tools: _tools, onRemainingSecondsWarning: _warn, isEqual: _isEqual, ...sessionOptions } = options;
      return createRealtimeSession({ ...sessionOptions, ...transport });
    },
    removedMessage: 'useVoiceAgent: the `session` option (or the VoiceAgentProvider above) cannot be removed once given',
  });
  useClientTools(session, options.tools);
  useRemainingSecondsWarning(session, options.onRemainingSecondsWarning);
  const controls = useMemo(() => controlsOf(session), [session]);
  const pick = select ?? ((agent: VoiceAgent) => agent as T | VoiceAgent);
  return useSelectedSnapshot(
    session.subscribe,
    session.getSnapshot,
    (state: RealtimeState) => pick(voiceAgentOf(state, controls)),
    select ? options.isEqual : Object.is,
  );
}

/** Calls the latest `listener` on the session's `remainingSecondsWarning` events while mounted. */
function useRemainingSecondsWarning(session: RealtimeSession, listener: ((remainingSeconds: number) => void) | undefined): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    const forward = (seconds: number) => latest.current?.(seconds);
    session.on('remainingSecondsWarning', forward);
    return () => void session.off('remainingSecondsWarning', forward);
  }, [session]);
}
