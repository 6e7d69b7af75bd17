import { DataPacket, DataPacket_Kind, UserPacket, type SendDataRequest } from '@livekit/protocol';

/** Largest payload RoomService `SendData` relays (LiveKit's reliable limit is 15 KiB per packet; it splits more). */
export const MAX_SEND_DATA_BYTES = 64 * 1024;

/**
 * The data packet a RoomService `SendData` puts into the room, from the server (no sender): the payload as a
 * user packet with its topic, for the named identities or everyone. A string is the reason it is refused.
 *
 * @example
 * const data = roomServiceData(SendDataRequest.fromJson({ room: 'r', data: 'aGk=', kind: 'RELIABLE', topic: 'chat' }));
 * if (typeof data !== 'string') room.sendData(undefined, data.packet, data.reliable);
 */
export function roomServiceData(
  request: SendDataRequest,
  identityOfSid: (sid: string) => string | undefined = () => undefined,
): { packet: DataPacket; reliable: boolean } | string {
  if (request.data.length === 0) return 'data is required';
  if (request.data.length > MAX_SEND_DATA_BYTES) return `data is larger than ${MAX_SEND_DATA_BYTES} bytes`;
  const reliable = request.kind !== DataPacket_Kind.LOSSY;
  // `destination_sids` is deprecated in favour of identities; both are honoured.
  const fromSids = request.destinationSids.map(identityOfSid).filter((identity): identity is string => identity !== undefined);
  if (request.destinationSids.length > 0 && fromSids.length === 0 && request.destinationIdentities.length === 0)
    return 'no participant has the destination sids';
  const destinationIdentities = [...new Set([...request.destinationIdentities, ...fromSids])];
  const user = new UserPacket({
    payload: request.data,
    destinationIdentities,
    ...(request.topic !== undefined ? { topic: request.topic } : {}),
    ...(request.nonce.length > 0 ? { nonce: request.nonce } : {}),
  });
  const packet = new DataPacket({
    kind: reliable ? DataPacket_Kind.RELIABLE : DataPacket_Kind.LOSSY,
    destinationIdentities,
    value: { case: 'user', value: user },
  });
  return { packet, reliable };
}
