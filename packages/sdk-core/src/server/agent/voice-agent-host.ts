import type { Logger } from 'pino';
import type { AgentTransport } from '../engines/media/index.js';
import type { OutboundPolicy } from '../kernel/outbound/index.js';
import type { Speech } from '../engines/speech/index.js';
import type { AgentSessionEvents, AgentSessionHandle, AgentSessionHost, AgentSessionSpec } from '../kernel/ports/agent-session-host.js';
import type { AgentVoices } from '../voice/speaker/agent-voice.js';
import type { ConversationMeter } from '../kernel/ports/conversation-meter.js';
import type { AgentChat } from '../voice/answering/answer-stream.js';
import { DEFAULT_TURN_DETECTION } from '../voice/listener/human-listener.js';
import { recordedTransport } from './recorded-connection.js';
import { SessionRegistry } from './session-registry.js';
import type { TurnMetrics } from '../kernel/ports/turn-metrics.js';
import type { SessionRecordings } from '../kernel/ports/session-recordings.js';
import { VoiceAgent, type VoiceAgentTuning } from './voice-agent.js';

export interface VoiceAgentHostDependencies {
  /** How agents reach rooms (`services.media.transport`). */
  transport: AgentTransport;
  /** TTS, STT and VAD (`services.speech`). */
  speech: Pick<Speech, 'tts' | 'stt' | 'vad'>;
  /** The LLM gateway (`services.chat`): answers are metered as the session's principal. */
  chat: AgentChat;
  logger: Logger;
  /**
   * Voice lookups (persona voices, the default voice) and `voice_synthesis_seconds` metering of the
   * agent's speech (`services.voiceSynthesis`). Without it the agent speaks with `voice_override` or
   * Flite `slt`, unmetered.
   */
  voices?: AgentVoices;
  /** `conversational_seconds` metering and limits of the humans' time in their sessions (`usageConversationMeter`). */
  conversation?: ConversationMeter;
  /**
   * Where `web_request` tools may point: the LLM gateway's loopback/private network flags
   * (`config.llm`). Default: public addresses only.
   */
  toolAddressPolicy?: OutboundPolicy;
  /** Overrides of the timing defaults (turn detection, human-left grace, human join timeout, terminal linger, tool timeouts). */
  tuning?: Partial<Omit<VoiceAgentTuning, 'turnDetection'>> & { turnDetection?: Partial<VoiceAgentTuning['turnDetection']> };
  /** Called after every agent turn with its latency breakdown (benchmarks, logs, dashboards). */
  onTurnMetrics?: (metrics: TurnMetrics) => void;
  /** Stores the recordings of sessions started with `general.recording: true` (decision 0112). */
  recordings?: SessionRecordings;
}

/** The in-process host, which can also say how many agents it runs (the server's metrics read it). */
export interface VoiceAgentHost extends AgentSessionHost {
  /** Sessions whose agent runs here now (started and not stopped). */
  liveSessions(): number;
}

export const DEFAULT_VOICE_AGENT_TUNING: VoiceAgentTuning = {
  turnDetection: DEFAULT_TURN_DETECTION,
  humanLeftGraceMs: 30_000,
  humanJoinTimeoutMs: 120_000,
  terminalLingerMs: 500,
  outputSampleRate: 48_000,
};

/**
 * The embedded server's {@link AgentSessionHost}: runs each session's voice agent in process. Starting a
 * session that already runs answers its running agent; `close` stops them all (server shutdown).
 *
 * @example
 * const host = createVoiceAgentHost({ transport: services.media.transport, speech: services.speech, chat: services.chat, voices: services.voiceSynthesis, logger });
 * const handle = await host.start({ session, principal, humanIdentity: 'human_1' }, events);
 * await handle.speak('Welcome!');
 * host.liveSessions(); // 1
 * await host.close();
 */
export function createVoiceAgentHost(dependencies: VoiceAgentHostDependencies): VoiceAgentHost {
  const tuning: VoiceAgentTuning = {
    ...DEFAULT_VOICE_AGENT_TUNING,
    ...dependencies.tuning,
    turnDetection: { ...DEFAULT_TURN_DETECTION, ...dependencies.tuning?.turnDetection },
  };
  const running = new SessionRegistry<VoiceAgent>();

  async function launch(spec: AgentSessionSpec, events: AgentSessionEvents): Promise<{ session: VoiceAgent; handle: AgentSessionHandle }> {
    const id = spec.session.id;
    const agent: VoiceAgent = new VoiceAgent(
      spec,
      {
        messageCommitted: (message) => events.messageCommitted(message),
        stopped: async (reason, detail) => {
          running.forget(id, agent);
          await events.stopped(reason, detail);
        },
      },
      { ...dependencies, tuning, transport: recordedTransport(dependencies.transport, spec, dependencies.recordings, dependencies.logger) },
    );
    await agent.start();
    const handle: AgentSessionHandle = {
      sessionId: id,
      speak: (text) => agent.speak(text),
      update: (config) => agent.update(config),
      stop: async (reason) => {
        running.forget(id, agent);
        await agent.stop(reason);
      },
    };
    return { session: agent, handle };
  }

  return {
    start: (spec, events) => running.start(spec.session.id, () => launch(spec, events)),
    liveSessions: () => running.size,
    async close() {
      await Promise.all(running.takeAll().map(({ session }) => session.stop('ended')));
    },
  };
}
