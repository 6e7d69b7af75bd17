import type { ParticipantKind } from './agent-transport.js';

/** LiveKit's ParticipantInfo.Kind numbers, in enum order. */
const kinds: ParticipantKind[] = ['standard', 'ingress', 'egress', 'sip', 'agent', 'connector', 'bridge'];

/** Maps LiveKit's numeric participant kind to the transport's name. */
export function participantKindName(kind: number): ParticipantKind {
  return kinds[kind] ?? 'standard';
}
