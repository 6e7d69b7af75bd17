import type { DataPacket, DisconnectReason, ParticipantInfo, Room as RoomInfo } from '@livekit/protocol';
import type { ParticipantState } from '../participant-state.js';
import type { PublishedTrack } from '../published-track.js';
import type { RoomMember } from '../room-member.js';

export interface LocalMemberListener {
  participants(participants: ParticipantInfo[]): void;
  room(room: RoomInfo): void;
  data(packet: DataPacket, reliable: boolean): void;
  trackPublished(track: PublishedTrack): void;
  removed(reason: DisconnectReason): void;
}

/**
 * The in-process agent as a room member: no socket, no WebRTC; the room calls straight into the
 * agent connection (deliveries are deferred a microtask so the room never runs agent code inline).
 *
 * @example
 * const member = new LocalMember(state, listener);
 * room.join(member);
 */
export class LocalMember implements RoomMember {
  constructor(
    readonly state: ParticipantState,
    private readonly listener: LocalMemberListener,
  ) {}

  deliverParticipants(participants: ParticipantInfo[]): void {
    queueMicrotask(() => this.listener.participants(participants));
  }

  deliverRoom(room: RoomInfo): void {
    queueMicrotask(() => this.listener.room(room));
  }

  deliverData(packet: DataPacket, reliable: boolean): void {
    // The room reuses the packet object for every receiver; keep our own copy.
    const copy = packet.clone();
    queueMicrotask(() => this.listener.data(copy, reliable));
  }

  /** Audio and video tracks alike are offered to the agent (video is decoded only while the agent reads it). */
  trackPublished(track: PublishedTrack): void {
    queueMicrotask(() => this.listener.trackPublished(track));
  }

  removed(reason: DisconnectReason): void {
    queueMicrotask(() => this.listener.removed(reason));
  }
}
