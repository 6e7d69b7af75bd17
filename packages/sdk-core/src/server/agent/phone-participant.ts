import { SIP_CALL_STATUS_ATTRIBUTE } from '../../contract/wire.js';
import type { AgentRoomConnection, RoomParticipant } from '../engines/media/index.js';

/**
 * Whether a participant is there to talk to: a phone callee (an outbound call) joins the room while it is dialed
 * and rings (LiveKit's `sip.callStatus`), and is there only once it answered (`active`). Until then the agent does
 * not greet it and its conversational seconds do not run (`participantUpdated` brings the answer).
 */
export function answered(participant: RoomParticipant): boolean {
  const status = participant.attributes[SIP_CALL_STATUS_ATTRIBUTE];
  return participant.kind !== 'sip' || status === undefined || status === 'active';
}

/** Calls `present` when a participant joins, and again when one changes (a phone callee answering); the unsubscribers. */
export function onPresence(connection: Pick<AgentRoomConnection, 'on'>, present: (participant: RoomParticipant) => void): Array<() => void> {
  return [connection.on('participantJoined', present), connection.on('participantUpdated', present)];
}
