import type { RealtimeAgentChoices } from '../../../contract/realtime.js';
import type { AgentDispatcher } from '../../engines/media/index.js';

/**
 * The agents a realtime session can choose with `config.general.agent` (`GET /v1/realtime/agents`, a Palaver
 * extension): the built-in agent, then each agent name the media endpoint's LiveKit Agents workers registered.
 * A LiveKit deployment cannot be asked for its workers: only the built-in agent, and `workers_listed: false`.
 *
 * @example
 * agentChoices(media.dispatcher) // { values: [{ type: 'builtin' }, { type: 'livekit_worker', agent_name: 'echo-agent', workers: 1, available: true }], workers_listed: true }
 */
export function agentChoices(dispatcher: Pick<AgentDispatcher, 'registeredAgents'>): RealtimeAgentChoices {
  const registered = dispatcher.registeredAgents();
  return {
    values: [
      { type: 'builtin' },
      ...(registered ?? []).map((agent) => ({
        type: 'livekit_worker' as const,
        agent_name: agent.agentName,
        workers: agent.workers,
        available: agent.available,
      })),
    ],
    workers_listed: registered !== undefined,
  };
}
