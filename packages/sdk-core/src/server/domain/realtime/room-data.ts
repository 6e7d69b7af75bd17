import { randomBytes } from 'node:crypto';
import { DataPacket, DataPacket_Kind, SendDataRequest, UserPacket } from '@livekit/protocol';
import type { MediaService } from '../../engines/media/index.js';

/** What a server-side publish needs of the media service. */
export type RoomDataMedia = Pick<MediaService, 'mode' | 'endpoint' | 'clientUrl' | 'createAdminToken'>;

/** Thrown when the room to publish into is gone or the media plane refused the packet. */
export class RoomDataError extends Error {}

/**
 * Sends a reliable data packet on `topic` to everyone in `room`, from the server itself (no participant
 * joins for it; receivers see no sender identity). The embedded endpoint relays it in process; a LiveKit
 * deployment gets it through its RoomService `SendData` call (Twirp, with a room-admin token).
 *
 * @example
 * await sendRoomData(services.media, session.id, 'avatar_action', JSON.stringify({ action: 'wave', at }));
 */
export async function sendRoomData(media: RoomDataMedia, room: string, topic: string, payload: string): Promise<void> {
  const bytes = new TextEncoder().encode(payload);
  if (media.mode === 'embedded') {
    const target = media.endpoint?.rooms.get(room);
    if (!target) throw new RoomDataError(`room '${room}' does not exist on the media endpoint`);
    const packet = new DataPacket({
      kind: DataPacket_Kind.RELIABLE,
      value: { case: 'user', value: new UserPacket({ payload: bytes, topic }) },
    });
    target.sendData(undefined, packet, true);
    return;
  }
  const request = new SendDataRequest({ room, data: bytes, kind: DataPacket_Kind.RELIABLE, topic, nonce: randomBytes(16) });
  const url = `${media.clientUrl().replace(/^ws/, 'http').replace(/\/+$/, '')}/twirp/livekit.RoomService/SendData`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${await media.createAdminToken(room)}`, 'content-type': 'application/json' },
    body: JSON.stringify(request.toJson()),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok)
    throw new RoomDataError(`the media server refused the packet for room '${room}': ${response.status} ${(await response.text()).slice(0, 200)}`);
}
