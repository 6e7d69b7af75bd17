import type { AgentParticipantMetadata, SDKAgentState } from '../contract/sdk.js';
import { AGENT_IDENTITY, AGENT_STATE_ATTRIBUTE } from '../contract/wire.js';

/** What the connector needs to know of a room participant (plain data, so the reducer stays pure). */
export interface ParticipantView {
  identity: string;
  /** LiveKit participant kind `AGENT`. */
  isAgent: boolean;
  /** Its metadata as the agent declares it (`{agent_state, remaining_seconds}`), parsed where it arrives; undefined when absent or malformed. */
  metadata: AgentParticipantMetadata | undefined;
  attributes: Readonly<Record<string, string>>;
}

/** The agent's state as it declares it. `remainingSeconds` is undefined when it did not say. */
export interface AgentStatus {
  agentState: SDKAgentState;
  remainingSeconds: number | null | undefined;
}

/** A Palaver agent joins as identity `agent`; a LiveKit Agents worker joins with kind AGENT. */
export function isAgentParticipant(participant: Pick<ParticipantView, 'identity' | 'isAgent'>): boolean {
  return participant.identity === AGENT_IDENTITY || participant.isAgent;
}

const attributeStates: Record<string, SDKAgentState> = {
  initializing: 'warmup',
  listening: 'listening',
  thinking: 'thinking',
  speaking: 'speaking',
};

/**
 * Reads the agent's state from its metadata (`{"agent_state","remaining_seconds"}`), falling back to the
 * LiveKit convention attribute `lk.agent.state`. Undefined when neither says anything usable.
 */
export function agentStatusOf(participant: ParticipantView): AgentStatus | undefined {
  const metadata = participant.metadata;
  if (metadata) return { agentState: metadata.agent_state, remainingSeconds: metadata.remaining_seconds };
  const attribute = participant.attributes[AGENT_STATE_ATTRIBUTE];
  const fromAttribute = attribute === undefined ? undefined : attributeStates[attribute];
  return fromAttribute ? { agentState: fromAttribute, remainingSeconds: undefined } : undefined;
}

/** Agent states after which the agent says nothing more in this session. */
export function isTerminalAgentState(state: SDKAgentState | undefined): state is 'time_limit_exceeded' | 'usage_limit_exceeded' {
  return state === 'time_limit_exceeded' || state === 'usage_limit_exceeded';
}
