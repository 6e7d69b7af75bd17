// Bundled with esbuild into the test page: drives the Palaver realtime connector (@palaver/sdk-core/realtime,
// from source, with its livekit-client) from the tests.
import { createRealtimeSession, type RealtimeSession, type RealtimeState } from '@palaver/sdk-core/realtime';
import { measureAgentTone, measureStreamTone } from '../../support/page-audio.js';

const state = {
  session: undefined as RealtimeSession | undefined,
  statuses: [] as string[],
  connectionStates: [] as string[],
  /** Each reason a resume gave (`network`, `signal`), in order, as the snapshot changed to it. */
  resumeReasons: [] as string[],
  agentStates: [] as Array<string | null>,
  remainingSeconds: [] as Array<number | null>,
  /** `remainingSecondsWarning` events: the seconds left when time was almost up. */
  warnings: [] as number[],
  transcriptionEvents: [] as Array<{ id: string; text: string }>,
  errors: [] as Array<{ name: string; message: string; reason?: string }>,
  ended: [] as string[],
  /** Client tool calls the agent cancelled while their handler ran. */
  toolCancels: [] as string[],
  renders: 0,
};

function session(): RealtimeSession {
  if (!state.session) throw new Error('no session');
  return state.session;
}

function describeError(error: Error): { name: string; message: string; reason?: string } {
  const reason = (error as { reason?: unknown }).reason;
  return { name: error.name, message: error.message, ...(typeof reason === 'string' ? { reason } : {}) };
}

/** The snapshot as plain JSON (errors by name and message). */
function plain(snapshot: RealtimeState) {
  return {
    status: snapshot.status,
    connectionState: snapshot.connectionState,
    sessionId: snapshot.sessionId ?? null,
    agentState: snapshot.agentState ?? null,
    remainingSeconds: snapshot.remainingSeconds,
    remainingSecondsWarning: snapshot.remainingSecondsWarning,
    agentSpeechMuted: snapshot.agentSpeechMuted,
    noiseSuppression: { ...snapshot.noiseSuppression },
    agentTurns: snapshot.agentTurns.map((turn) => ({
      source: turn.source,
      end_of_speech_decision_ms: turn.end_of_speech_decision_ms,
      response_ms: turn.response_ms,
    })),
    transcriptions: snapshot.transcriptions.map((item) => ({
      id: item.id,
      agent: item.agent,
      final: item.final,
      text: item.text,
      created_at: item.created_at,
      speaking_ended_at: item.speaking_ended_at,
    })),
    microphone: { ...snapshot.microphone },
    canPlayAudio: snapshot.canPlayAudio,
    agentAudio: snapshot.agentAudio,
    error: snapshot.error ? describeError(snapshot.error) : null,
    ended: snapshot.status === 'not_connected' && snapshot.ended ? snapshot.ended.reason : null,
    /** Why the connection is resuming (`network` or `signal`), while it is. */
    resumeReason: snapshot.status === 'reconnecting' ? snapshot.reason : null,
  };
}

const api = {
  /**
   * Creates a session, records its events, and connects: with ready connection details (`url`, `token`), or
   * with `baseUrl` set, by starting a session with the usage token `token` and `config`.
   */
  async connect(
    url: string,
    token: string,
    options: {
      agentTimeoutMs?: number;
      microphone?: boolean;
      baseUrl?: string;
      config?: object;
      remainingSecondsWarningAt?: number;
      resumeTranscripts?: boolean;
      noiseSuppression?: boolean;
    } = {},
  ) {
    const created = createRealtimeSession({
      agentTimeoutMs: options.agentTimeoutMs ?? 20_000,
      microphone: options.microphone ?? true,
      ...(options.remainingSecondsWarningAt !== undefined ? { remainingSecondsWarningAt: options.remainingSecondsWarningAt } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.resumeTranscripts !== undefined ? { resumeTranscripts: options.resumeTranscripts } : {}),
      ...(options.noiseSuppression !== undefined ? { noiseSuppression: options.noiseSuppression } : {}),
    });
    state.session = created;
    created.subscribe(() => {
      state.renders += 1;
      const now = created.getSnapshot();
      const reason = now.status === 'reconnecting' ? now.reason : undefined;
      if (reason && state.resumeReasons.at(-1) !== reason) state.resumeReasons.push(reason);
    });
    created.on('statusChanged', (status) => state.statuses.push(status));
    created.on('connectionStateChanged', (connectionState) => state.connectionStates.push(connectionState));
    created.on('agentStateChanged', (agentState) => state.agentStates.push(agentState ?? null));
    created.on('remainingSecondsChanged', (seconds) => state.remainingSeconds.push(seconds));
    created.on('remainingSecondsWarning', (seconds) => state.warnings.push(seconds));
    created.on('transcription', (item) => state.transcriptionEvents.push({ id: item.id, text: item.text }));
    created.on('error', (error) => state.errors.push(describeError(error)));
    created.on('ended', (end) => state.ended.push(end.reason));
    // Client-side tools: one answering at once, one running until the agent cancels it.
    created.onToolCall('echo_tool', async (args) => ({ echoed: args, from: navigator.userAgent.includes('Chrome') ? 'chromium' : 'browser' }));
    created.onToolCall(
      'wait_tool',
      (_args, { signal, call }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            state.toolCancels.push(call.id);
            reject(signal.reason as Error);
          }),
        ),
    );
    try {
      await created.connect(options.config ? { token, config: options.config as never } : { connection_details: { url, token } });
      return { ok: true as const, snapshot: plain(created.getSnapshot()) };
    } catch (error) {
      return { ok: false as const, error: describeError(error as Error), snapshot: plain(created.getSnapshot()) };
    }
  },
  snapshot() {
    return plain(session().getSnapshot());
  },
  /** Ids of the client tool calls running now (the snapshot's `toolCalls`). */
  toolCalls() {
    return session()
      .getSnapshot()
      .toolCalls.map((pending) => pending.call.id);
  },
  history() {
    const { session: _session, ...recorded } = state;
    return JSON.parse(JSON.stringify(recorded)) as Omit<typeof state, 'session'>;
  },
  /** A raw data packet to the agent (`session.sendData`). */
  async sendData(topic: string, text: string): Promise<void> {
    await session().sendData(topic, text);
  },
  async sendChat(text: string): Promise<void> {
    await session().sendChatMessage({ text });
  },
  async setMicrophone(enabled: boolean): Promise<void> {
    await session().setMicrophoneEnabled(enabled);
  },
  /** Noise suppression of the microphone, switched live (`setNoiseSuppression`). */
  async setNoiseSuppression(enabled: boolean): Promise<void> {
    await session().setNoiseSuppression(enabled);
  },
  setAgentSpeechMuted(muted: boolean): void {
    session().setAgentSpeechMuted(muted);
  },
  /** The connector's own level meter of the agent's audio (max over `durationMs`). */
  async agentLevel(durationMs: number): Promise<{ volume: number; bands: number[] }> {
    let volume = 0;
    let bands: number[] = [];
    const end = performance.now() + durationMs;
    while (performance.now() < end) {
      const level = session().getAudioLevels().agent;
      if (level > volume) {
        volume = level;
        bands = session().getFrequencyBands('agent', 8);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { volume, bands };
  },
  /** The audio elements the connector attached the agent's track to. */
  audioElements() {
    return [...document.querySelectorAll('audio')].map((element) => ({
      paused: element.paused,
      muted: element.muted,
      liveTracks: element.srcObject instanceof MediaStream ? element.srcObject.getAudioTracks().filter((track) => track.readyState === 'live').length : 0,
    }));
  },
  measureAgentTone,
  /** Strength of a frequency in `session.agentAudioStream()` over `durationMs`; null while there is no stream. */
  async measureAgentStreamTone(frequency: number, durationMs: number) {
    const stream = session().agentAudioStream();
    return stream ? { sameStream: stream === session().agentAudioStream(), ...(await measureStreamTone(stream, frequency, durationMs)) } : null;
  },
  async disconnect() {
    await session().disconnect();
    return plain(session().getSnapshot());
  },
};

export type ConnectorPageApi = typeof api;
(window as unknown as { connector: ConnectorPageApi }).connector = api;
