import { DataPacket, DisconnectReason, ParticipantInfo_State, Room as RoomInfo, type ParticipantInfo } from '@livekit/protocol';
import { ActiveSpeakers } from './active-speakers.js';
import { LIVEKIT_AUDIO_LEVELS } from './audio-level.js';
import { newSid } from './published-audio-track.js';
import type { PublishedTrack } from './published-track.js';
import type { RoomMember } from './room-member.js';

export interface RoomOptions {
  name: string;
  metadata?: string;
  /** Seconds an empty room lives before it closes (0 = until deleted). */
  emptyTimeoutSeconds?: number;
  maxParticipants?: number;
}

/**
 * One room: its members, their tracks and the data between them. Single-process, synchronous
 * fan-out: a member's deliver* calls only queue work.
 *
 * @example
 * const room = registry.ensure({ name: 'session_1' });
 * room.join(member);
 */
export class Room {
  readonly sid = newSid('RM');
  readonly name: string;
  readonly createdAtMs = Date.now();
  metadata: string;
  readonly emptyTimeoutSeconds: number;
  readonly maxParticipants: number;
  private readonly members = new Map<string, RoomMember>();
  private readonly closeListeners: Array<() => void> = [];
  private readonly membershipListeners = new Set<(member: RoomMember, joined: boolean) => void>();
  private emptyTimer: NodeJS.Timeout | undefined;
  private closedFlag = false;
  private readonly speakers = new ActiveSpeakers();
  private speakerTimer: NodeJS.Timeout | undefined;

  constructor(options: RoomOptions) {
    this.name = options.name;
    this.metadata = options.metadata ?? '';
    this.emptyTimeoutSeconds = options.emptyTimeoutSeconds ?? 300;
    this.maxParticipants = options.maxParticipants ?? 0;
    this.armEmptyTimer();
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  info(): RoomInfo {
    const members = [...this.members.values()];
    return new RoomInfo({
      sid: this.sid,
      name: this.name,
      metadata: this.metadata,
      emptyTimeout: this.emptyTimeoutSeconds,
      maxParticipants: this.maxParticipants,
      creationTime: BigInt(Math.floor(this.createdAtMs / 1000)),
      creationTimeMs: BigInt(this.createdAtMs),
      numParticipants: members.length,
      numPublishers: members.filter((member) => member.state.tracks.size > 0).length,
    });
  }

  member(identity: string): RoomMember | undefined {
    return this.members.get(identity);
  }

  memberBySid(sid: string): RoomMember | undefined {
    for (const member of this.members.values()) if (member.state.sid === sid) return member;
    return undefined;
  }

  list(): RoomMember[] {
    return [...this.members.values()];
  }

  /** Participants other than `identity`, as clients see them (hidden ones left out). */
  othersInfo(identity: string): ParticipantInfo[] {
    return this.list()
      .filter((member) => member.state.identity !== identity && !member.state.permission.hidden)
      .map((member) => member.state.info());
  }

  isFull(): boolean {
    return this.maxParticipants > 0 && this.members.size >= this.maxParticipants;
  }

  /** Adds a member; an existing one with the same identity is removed first (DUPLICATE_IDENTITY). */
  join(member: RoomMember): void {
    if (this.closedFlag) throw new Error(`Room ${this.name} is closed`);
    const previous = this.members.get(member.state.identity);
    if (previous) this.remove(previous, DisconnectReason.DUPLICATE_IDENTITY);
    this.members.set(member.state.identity, member);
    if (this.emptyTimer) clearTimeout(this.emptyTimer);
    this.emptyTimer = undefined;
    this.broadcastParticipant(member);
    for (const other of this.members.values()) {
      if (other === member) continue;
      for (const track of other.state.tracks.values()) member.trackPublished(track);
    }
    this.watchSpeakers();
    for (const listener of [...this.membershipListeners]) listener(member, true);
  }

  /** Removes a member and tells the others it left. */
  remove(member: RoomMember, reason: DisconnectReason): void {
    if (this.members.get(member.state.identity) !== member) return;
    this.members.delete(member.state.identity);
    for (const track of member.state.tracks.values()) track.end();
    member.state.tracks.clear();
    member.state.state = ParticipantInfo_State.DISCONNECTED;
    member.state.disconnectReason = reason;
    member.state.touch();
    this.broadcastParticipant(member);
    member.removed(reason);
    this.armEmptyTimer();
    this.watchSpeakers();
    for (const listener of [...this.membershipListeners]) listener(member, false);
  }

  /** Calls `listener` after every member joins (`joined` true) or leaves; returns the unsubscribe function. */
  onMembership(listener: (member: RoomMember, joined: boolean) => void): () => void {
    this.membershipListeners.add(listener);
    return () => this.membershipListeners.delete(listener);
  }

  /** Tells the others that a member's info changed (metadata, attributes, state, tracks). */
  broadcastParticipant(member: RoomMember): void {
    if (member.state.permission.hidden) return;
    const info = member.state.info();
    for (const other of this.members.values()) if (other !== member) other.deliverParticipants([info]);
  }

  publishTrack(member: RoomMember, track: PublishedTrack): void {
    member.state.tracks.set(track.sid, track);
    member.state.touch();
    this.broadcastParticipant(member);
    for (const other of this.members.values()) if (other !== member) other.trackPublished(track);
  }

  unpublishTrack(member: RoomMember, trackSid: string): void {
    const track = member.state.tracks.get(trackSid);
    if (!track) return;
    member.state.tracks.delete(trackSid);
    track.end();
    member.state.touch();
    this.broadcastParticipant(member);
  }

  /** A member's info changed on the server's side (RoomService): everyone, the member too, hears of it. */
  participantChanged(member: RoomMember): void {
    this.broadcastParticipant(member);
    member.deliverParticipants([member.state.info()]);
  }

  /** Mutes or unmutes a published track on the server's side; false when the member has no such track. */
  muteTrack(member: RoomMember, trackSid: string, muted: boolean): boolean {
    const track = member.state.tracks.get(trackSid);
    if (!track) return false;
    if (track.info.muted !== muted) {
      track.info.muted = muted;
      member.state.touch();
      member.trackMutedByServer?.(trackSid, muted);
      this.participantChanged(member);
    }
    return true;
  }

  setMetadata(metadata: string): void {
    this.metadata = metadata;
    const info = this.info();
    for (const member of this.members.values()) member.deliverRoom(info);
  }

  /**
   * Relays a data packet from `sender` (or from the server when undefined) to its destinations.
   * The sender fields are overwritten: a client cannot speak for someone else. An agent may, like in LiveKit,
   * speak for another participant of the room (a human's transcription published as theirs).
   */
  sendData(sender: RoomMember | undefined, packet: DataPacket, reliable: boolean): void {
    const onBehalfOf = sender?.state.permission.agent && packet.participantIdentity ? this.members.get(packet.participantIdentity) : undefined;
    if (onBehalfOf) {
      packet.participantSid = onBehalfOf.state.sid;
    } else if (sender) {
      packet.participantIdentity = sender.state.identity;
      packet.participantSid = sender.state.sid;
      if (packet.value.case === 'user') {
        packet.value.value.participantIdentity = sender.state.identity;
        packet.value.value.participantSid = sender.state.sid;
      }
    }
    const destinations = new Set([...packet.destinationIdentities, ...(packet.value.case === 'user' ? packet.value.value.destinationIdentities : [])]);
    for (const member of this.members.values()) {
      if (member === sender) continue;
      if (destinations.size > 0 && !destinations.has(member.state.identity)) continue;
      member.deliverData(packet, reliable);
    }
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  close(): void {
    if (this.closedFlag) return;
    for (const member of [...this.members.values()]) this.remove(member, DisconnectReason.ROOM_DELETED);
    this.closedFlag = true;
    if (this.emptyTimer) clearTimeout(this.emptyTimer);
    clearInterval(this.speakerTimer);
    for (const listener of this.closeListeners) listener();
  }

  /** Looks for speakers every update interval while anyone is in the room (LiveKit's audio update worker). */
  private watchSpeakers(): void {
    if (this.members.size > 0 && !this.closedFlag) {
      this.speakerTimer ??= setInterval(() => this.announceSpeakers(Date.now()), LIVEKIT_AUDIO_LEVELS.observeMs);
      this.speakerTimer.unref();
      return;
    }
    clearInterval(this.speakerTimer);
    this.speakerTimer = undefined;
  }

  /** Tells every member who started or stopped speaking since the last look (nothing when nothing changed). */
  announceSpeakers(nowMs: number): void {
    const changes = this.speakers.look(this.list(), nowMs);
    if (changes.length === 0) return;
    for (const member of this.members.values()) member.deliverSpeakers?.(changes);
  }

  private armEmptyTimer(): void {
    if (this.members.size > 0 || this.emptyTimeoutSeconds <= 0 || this.closedFlag) return;
    if (this.emptyTimer) clearTimeout(this.emptyTimer);
    this.emptyTimer = setTimeout(() => this.close(), this.emptyTimeoutSeconds * 1000);
    this.emptyTimer.unref();
  }
}
