import type { DataPacket, DisconnectReason, ParticipantInfo, Room as RoomInfo, SpeakerInfo } from '@livekit/protocol';
import type { ParticipantState } from './participant-state.js';
import type { PublishedTrack } from './published-track.js';

/**
 * A participant as the room drives it: a remote client (websocket + WebRTC) or the in-process
 * agent. The room calls these; implementations must not throw.
 */
export interface RoomMember {
  readonly state: ParticipantState;
  /** Other participants joined, changed or left (state DISCONNECTED). */
  deliverParticipants(participants: ParticipantInfo[]): void;
  deliverRoom(room: RoomInfo): void;
  /** A data packet from another participant (already stamped with the sender). */
  deliverData(packet: DataPacket, reliable: boolean): void;
  /** Another participant published a track (audio or video) the member may subscribe to. */
  trackPublished(track: PublishedTrack): void;
  /** The room removes the member (kicked, duplicate identity, room closed, timeout). */
  removed(reason: DisconnectReason): void;
  /** The server muted (or unmuted) one of the member's tracks (RoomService `MutePublishedTrack`). */
  trackMutedByServer?(trackSid: string, muted: boolean): void;
  /** Who started or stopped speaking, or speaks louder or softer (LiveKit's `SpeakersChanged`: only the changes). */
  deliverSpeakers?(speakers: SpeakerInfo[]): void;
  /** The server (un)subscribes the member to tracks (RoomService `UpdateSubscriptions`). */
  setSubscriptions?(trackSids: string[], subscribe: boolean): void;
}
