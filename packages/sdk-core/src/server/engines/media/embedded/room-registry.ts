import { Room, type RoomOptions } from './room.js';

/**
 * The endpoint's rooms by name.
 *
 * @example
 * const room = registry.ensure({ name: 'session_1', metadata: '{"session":"session_1"}' });
 */
export class RoomRegistry {
  private readonly rooms = new Map<string, Room>();

  get(name: string): Room | undefined {
    return this.rooms.get(name);
  }

  list(): Room[] {
    return [...this.rooms.values()];
  }

  /** Returns the room, creating it (and applying `metadata` only on creation). */
  ensure(options: RoomOptions): Room {
    const existing = this.rooms.get(options.name);
    if (existing && !existing.closed) return existing;
    const room = new Room(options);
    this.rooms.set(room.name, room);
    room.onClose(() => {
      if (this.rooms.get(room.name) === room) this.rooms.delete(room.name);
    });
    return room;
  }

  delete(name: string): boolean {
    const room = this.rooms.get(name);
    if (!room) return false;
    room.close();
    return true;
  }

  closeAll(): void {
    for (const room of [...this.rooms.values()]) room.close();
  }
}
