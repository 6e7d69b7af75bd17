import { randomBytes } from 'node:crypto';
import type { Store } from '../../store/database.js';

/** How long generated speech stays available by default. */
export const DEFAULT_CHAT_AUDIO_TTL_SECONDS = 3600;
/** Expired rows are swept at most this often (on writes), so cleanup costs one indexed delete per minute. */
const SWEEP_INTERVAL_MS = 60_000;

/** Speech stored for a completion. */
export interface StoredChatAudio {
  id: string;
  /** Unix seconds. */
  expiresAt: number;
}

export interface ChatAudioStoreOptions {
  ttlSeconds?: number;
  now?: () => number;
}

/**
 * The audio behind `service_ext.voice.audio_url`: rows of the `chat_audio` table, each under 128 random bits
 * (the unguessable id is the only credential, like a signed URL), readable until `expires_at`. Expired rows
 * are deleted by {@link sweep}, which writes trigger at most once a minute; reads never return them.
 *
 * @example
 * const { id, expiresAt } = await store.save({ project, human, audio, contentType: 'audio/mpeg' });
 * const found = await store.load(id); // undefined once expired
 */
export class ChatAudioStore {
  private readonly ttlSeconds: number;
  private readonly now: () => number;
  private lastSweep = 0;

  constructor(
    private readonly store: Store,
    options: ChatAudioStoreOptions = {},
  ) {
    this.ttlSeconds = options.ttlSeconds ?? DEFAULT_CHAT_AUDIO_TTL_SECONDS;
    this.now = options.now ?? Date.now;
  }

  async save(entry: { project: string; human: string | null; audio: Uint8Array; contentType: string }): Promise<StoredChatAudio> {
    await this.sweepIfDue();
    const id = randomBytes(16).toString('base64url');
    const nowMs = this.now();
    const expiresMs = nowMs + this.ttlSeconds * 1000;
    await this.store.db
      .insertInto('chat_audio')
      .values({
        id,
        project: entry.project,
        human: entry.human,
        content_type: entry.contentType,
        audio: Buffer.from(entry.audio.buffer, entry.audio.byteOffset, entry.audio.byteLength),
        expires_at: new Date(expiresMs).toISOString(),
        created_at: new Date(nowMs).toISOString(),
      })
      .execute();
    return { id, expiresAt: Math.floor(expiresMs / 1000) };
  }

  /** The audio under `id`, or undefined when unknown or expired. */
  async load(id: string): Promise<{ audio: Uint8Array; contentType: string; expiresAt: number } | undefined> {
    const row = await this.store.db
      .selectFrom('chat_audio')
      .select(['audio', 'content_type', 'expires_at'])
      .where('id', '=', id)
      .where('expires_at', '>', new Date(this.now()).toISOString())
      .executeTakeFirst();
    if (!row) return undefined;
    return { audio: new Uint8Array(row.audio), contentType: row.content_type, expiresAt: Math.floor(Date.parse(row.expires_at) / 1000) };
  }

  /** Deletes expired rows; answers how many. */
  async sweep(): Promise<number> {
    this.lastSweep = this.now();
    const result = await this.store.db.deleteFrom('chat_audio').where('expires_at', '<=', new Date(this.lastSweep).toISOString()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private async sweepIfDue(): Promise<void> {
    if (this.now() - this.lastSweep >= SWEEP_INTERVAL_MS) await this.sweep();
  }
}
