import { randomBytes } from 'node:crypto';
import type { RealtimeSessionConnectionDetails } from '../../../contract/realtime.js';
import type { MediaService } from '../../engines/media/index.js';
import { AGENT_IDENTITY } from '../../../contract/wire.js';

/** The agent's room identity (wire protocol); a human never joins under it. */

/**
 * The identity the human joins the session's room with: the session's human, or a generated guest
 * identity for a session started without one (wire protocol, "Room and participants").
 */
export function humanIdentityFor(human: string | null): string {
  if (human === null) return `guest-${randomBytes(6).toString('hex')}`;
  return human === AGENT_IDENTITY ? `human-${human}` : human;
}

/** Room metadata of a session's room: `{"session": id}` (wire protocol). */
export function roomMetadataOf(sessionId: string): string {
  return JSON.stringify({ session: sessionId });
}

/**
 * The media side of a session: its room (named after the session id) and the human's way in.
 *
 * @example
 * const details = await room.open(session.id, 'alice', { fallbackUrl: 'ws://localhost:8080' });
 */
export class SessionRoom {
  constructor(private readonly media: Pick<MediaService, 'transport' | 'createJoinToken' | 'clientUrl'>) {}

  /**
   * Creates the room (or refreshes its metadata) and mints the human's join token. `fallbackUrl` is the
   * media URL when the server is not listening on a socket (in-process use): the media service only
   * knows its URL once it listens or when LiveKit is configured.
   */
  async open(sessionId: string, humanIdentity: string, options: { fallbackUrl?: string | undefined } = {}): Promise<RealtimeSessionConnectionDetails> {
    await this.media.transport.ensureRoom({ room: sessionId, metadata: roomMetadataOf(sessionId) });
    const token = await this.media.createJoinToken({ room: sessionId, identity: humanIdentity });
    return { url: this.urlOf(options.fallbackUrl), token };
  }

  /** Closes the room (disconnecting whoever is left in it). */
  async close(sessionId: string): Promise<void> {
    await this.media.transport.deleteRoom(sessionId);
  }

  private urlOf(fallbackUrl: string | undefined): string {
    try {
      return this.media.clientUrl();
    } catch (error) {
      if (fallbackUrl === undefined) throw error;
      return fallbackUrl.replace(/^http/, 'ws');
    }
  }
}
