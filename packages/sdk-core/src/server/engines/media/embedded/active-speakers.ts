import { SpeakerInfo } from '@livekit/protocol';
import type { RoomMember } from './room-member.js';

/** Levels are sent in steps of 1/16, so small wobbles are not updates (LiveKit rounds them too). */
const LEVEL_STEPS = 16;

/** A member's level: its loudest published track's. */
function memberLevel(member: RoomMember, nowMs: number): number {
  let loudest = 0;
  for (const track of member.state.tracks.values()) if (track.kind === 'audio' && !track.info.muted) loudest = Math.max(loudest, track.audioLevel.level(nowMs));
  return Math.ceil(loudest * LEVEL_STEPS) / LEVEL_STEPS;
}

/**
 * Who is speaking in a room, as LiveKit's `SpeakersChanged` says it: each look compares the active speakers (loudest
 * first) with the last look's, and returns only the changes: new speakers, changed levels, and the speakers who
 * stopped (`active: false`, level 0). Empty when nothing changed.
 *
 * @example
 * const changes = speakers.look(room.list(), Date.now());
 * if (changes.length > 0) for (const member of room.list()) member.deliverSpeakers?.(changes);
 */
export class ActiveSpeakers {
  private last = new Map<string, number>();

  look(members: RoomMember[], nowMs: number): SpeakerInfo[] {
    const current = new Map<string, number>();
    for (const member of members) {
      if (member.state.permission.hidden) continue;
      const level = memberLevel(member, nowMs);
      if (level > 0) current.set(member.state.sid, level);
    }
    const changes = [...current]
      .sort(([, a], [, b]) => b - a)
      .filter(([sid, level]) => this.last.get(sid) !== level)
      .map(([sid, level]) => new SpeakerInfo({ sid, level, active: true }));
    for (const sid of this.last.keys()) if (!current.has(sid)) changes.push(new SpeakerInfo({ sid, level: 0, active: false }));
    this.last = current;
    return changes;
  }

  /** Whether anyone was speaking at the last look. */
  get anyone(): boolean {
    return this.last.size > 0;
  }
}
