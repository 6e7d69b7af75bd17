import type { Logger } from 'pino';
import type { AgentDispatcher, AgentTransport } from '../engines/media/index.js';
import type { ConversationMeter } from '../kernel/ports/conversation-meter.js';
import type { AgentSessionEvents, AgentSessionHandle, AgentSessionSpec } from '../kernel/ports/agent-session-host.js';
import type { SessionRecordings } from '../kernel/ports/session-recordings.js';
import { observerRecordingTransport } from './recorded-connection.js';
import { SessionRegistry } from './session-registry.js';
import type { VoiceAgentHost } from './voice-agent-host.js';
import { WorkerAgentSession, type WorkerAgentTuning } from './worker-agent-session.js';

export const DEFAULT_WORKER_AGENT_TUNING: WorkerAgentTuning = {
  joinTimeoutMs: 20_000,
  humanJoinTimeoutMs: 120_000,
  humanLeftGraceMs: 30_000,
  leaveTimeoutMs: 5_000,
};

export interface RoutingAgentHostDependencies {
  /** Palaver's own voice agents (`createVoiceAgentHost`). */
  builtin: VoiceAgentHost;
  transport: AgentTransport;
  /** LiveKit Agents dispatch (`services.media.dispatcher`). */
  dispatcher: AgentDispatcher;
  /** `conversational_seconds` metering and limits of the humans' time in worker-run sessions (`usageConversationMeter`). */
  conversation?: ConversationMeter;
  logger: Logger;
  tuning?: Partial<WorkerAgentTuning>;
  /** Stores the recordings of worker sessions started with `general.recording: true`, made by their observer (decision 0122). */
  recordings?: SessionRecordings;
}

/**
 * The server's agent host: a session runs Palaver's voice agent, or, when its `general.agent` names a
 * LiveKit Agents worker, that worker's agent (a {@link WorkerAgentSession}).
 *
 * @example
 * const agents = createRoutingAgentHost({ builtin: createVoiceAgentHost(...), transport: media.transport, dispatcher: media.dispatcher, logger });
 */
export function createRoutingAgentHost(dependencies: RoutingAgentHostDependencies): VoiceAgentHost {
  const tuning = { ...DEFAULT_WORKER_AGENT_TUNING, ...dependencies.tuning };
  const running = new SessionRegistry<WorkerAgentSession>();

  async function launchWorker(
    spec: AgentSessionSpec,
    events: AgentSessionEvents,
    agentName: string,
    metadata: string | undefined,
  ): Promise<{ session: WorkerAgentSession; handle: AgentSessionHandle }> {
    const id = spec.session.id;
    const session: WorkerAgentSession = new WorkerAgentSession(
      spec,
      {
        messageCommitted: (message) => events.messageCommitted(message),
        stopped: async (reason, detail) => {
          running.forget(id, session);
          await events.stopped(reason, detail);
        },
      },
      { agentName, metadata },
      {
        transport: observerRecordingTransport(dependencies.transport, spec, dependencies.recordings, dependencies.logger),
        dispatcher: dependencies.dispatcher,
        conversation: dependencies.conversation,
        logger: dependencies.logger,
        tuning,
      },
    );
    await session.start();
    const handle: AgentSessionHandle = {
      sessionId: id,
      speak: (text) => session.speak(text),
      update: (config) => session.update(config),
      stop: async (reason) => {
        running.forget(id, session);
        await session.stop(reason);
      },
    };
    return { session, handle };
  }

  return {
    start(spec, events) {
      const agent = spec.session.config.general.agent;
      if (agent?.type === 'livekit_worker') return running.start(spec.session.id, () => launchWorker(spec, events, agent.agent_name, agent.metadata));
      return dependencies.builtin.start(spec, events);
    },
    liveSessions: () => dependencies.builtin.liveSessions() + running.size,
    async close() {
      const sessions = running.takeAll();
      await Promise.all([dependencies.builtin.close(), ...sessions.map(({ handle }) => handle.stop('server_shutdown'))]);
    },
  };
}
