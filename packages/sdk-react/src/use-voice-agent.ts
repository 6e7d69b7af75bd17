import { useCallback, useSyncExternalStore } from 'react';
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
  type SDKConnectOptions,
  type SDKSendChatMessageParams,
  type SDKSessionTranscription,
  type AgentTurnMetrics,
} from '@palaver/sdk-core/realtime';
import { useOwnedConnection } from './use-owned-connection.js';
import { useClientTools } from './use-client-tool.js';

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
}

export interface VoiceAgent {
  /** The framework-free session behind the hook (events, advanced use). */
  session: RealtimeSession;
  /** The whole snapshot, tagged by `status`. */
  state: RealtimeState;
  status: RealtimeStatus;
  connectionState: SDKConnectionState;
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
  error: Error | undefined;
  /** Why the last session ended (undefined while connected or before the first). */
  ended: RealtimeEnd | undefined;
  sessionId: string | undefined;
  microphoneEnabled: boolean;
  /** False: show a button that calls `startAudio` (browsers that need a user gesture). */
  canPlayAudio: boolean;
  /** Connects; never rejects (a failure is in `error` and `ended`). */
  connect(options: SDKConnectOptions): Promise<void>;
  disconnect(): Promise<void>;
  /** Rejects when the agent is not in the room or the text is empty. */
  sendChatMessage(params: SDKSendChatMessageParams): Promise<void>;
  /** Never rejects (a refused microphone is in `error`). */
  setMicrophoneEnabled(enabled: boolean): Promise<void>;
  startAudio(): Promise<void>;
  /** Volumes (0..1) right now; call from an animation frame for visualizers. */
  getAudioLevels(): Record<AudioSource, number>;
  getFrequencyBands(source: AudioSource, count?: number): number[];
}

const ignore = () => {};

/**
 * A voice session with a Palaver agent: state, transcript and controls, re-rendering on every change.
 * Inside a `PalaverProvider`, sessions are started on the provider client's base URL.
 *
 * @example
 * function Call({ usageToken, config }) {
 *   const agent = useVoiceAgent();
 *   if (agent.connectionState === 'not_connected')
 *     return <button onClick={() => agent.connect({ token: usageToken, config })}>Call</button>;
 *   return (
 *     <>
 *       <p>{agent.connectionState} / {agent.agentState}</p>
 *       {agent.transcriptions.map((t) => <p key={`${t.agent}:${t.id}`}>{t.text}{t.interrupted && '… (interrupted)'}</p>)}
 *       {!agent.canPlayAudio && <button onClick={agent.startAudio}>Enable audio</button>}
 *       <button onClick={agent.disconnect}>Hang up</button>
 *     </>
 *   );
 * }
 */
export function useVoiceAgent(options: UseVoiceAgentOptions = {}): VoiceAgent {
  const session = useOwnedConnection({
    given: options.session,
    options,
    connectOnMount: options.connectOnMount,
    create: (transport) => {
      const { session: _session, connectOnMount: _connect, tools: _tools, ...sessionOptions } = options;
      return createRealtimeSession({ ...sessionOptions, ...transport });
    },
    removedMessage: 'useVoiceAgent: the `session` option cannot be removed once given',
  });
  const state = useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
  useClientTools(session, options.tools);

  const connect = useCallback((connectOptions: SDKConnectOptions) => session.connect(connectOptions).catch(ignore), [session]);
  const disconnect = useCallback(() => session.disconnect(), [session]);
  const sendChatMessage = useCallback((params: SDKSendChatMessageParams) => session.sendChatMessage(params), [session]);
  const setMicrophoneEnabled = useCallback((enabled: boolean) => session.setMicrophoneEnabled(enabled).catch(ignore), [session]);
  const startAudio = useCallback(() => session.startAudio(), [session]);
  const getAudioLevels = useCallback(() => session.getAudioLevels(), [session]);
  const getFrequencyBands = useCallback((source: AudioSource, count?: number) => session.getFrequencyBands(source, count), [session]);

  return {
    session,
    state,
    status: state.status,
    connectionState: state.connectionState,
    agentState: state.agentState,
    transcriptions: state.transcriptions,
    toolCalls: state.toolCalls,
    turnLatencyMs: state.turnLatencies.at(-1),
    turnLatencies: state.turnLatencies,
    agentTurns: state.agentTurns,
    remainingSeconds: state.remainingSeconds,
    error: state.error,
    ended: state.status === 'not_connected' ? state.ended : undefined,
    sessionId: state.sessionId,
    microphoneEnabled: state.microphone.enabled,
    canPlayAudio: state.canPlayAudio,
    connect,
    disconnect,
    sendChatMessage,
    setMicrophoneEnabled,
    startAudio,
    getAudioLevels,
    getFrequencyBands,
  };
}
