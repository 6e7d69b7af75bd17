import type { ParticipantView } from './agent-participant.js';
import { checkAgentMetadata, checkDataPacket } from './received/packet-checks.js';
import type { RealtimeInput } from './session-actions.js';

/**
 * A data packet as the reducer takes it, checked as the contract says where it arrives (the room link, loaded with
 * `session-io`; `received/`, without zod): undefined for an unknown topic or a malformed payload, so a newer agent cannot
 * crash an older client.
 */
export function receivedData(
  topic: string | undefined,
  text: string,
  from: ParticipantView | undefined,
): Omit<Extract<RealtimeInput, { type: 'data_received' }>, 'attempt'> | undefined {
  const packet = checkDataPacket(topic, text);
  return packet ? { type: 'data_received', packet, from } : undefined;
}

/** A participant as the reducer sees it, its metadata parsed (undefined when absent or malformed). */
export function receivedParticipant(participant: {
  identity: string;
  isAgent: boolean;
  metadata?: string | undefined;
  attributes: Readonly<Record<string, string>>;
}): ParticipantView {
  return {
    identity: participant.identity,
    isAgent: participant.isAgent,
    metadata: checkAgentMetadata(participant.metadata),
    attributes: { ...participant.attributes },
  };
}
