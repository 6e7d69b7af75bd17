import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Speech generated for chat completions (`service_ext.voice.audio_url`): short-lived binary rows, served by
 * their random id until `expires_at` and then deleted. `bytea` is PostgreSQL's binary type; SQLite stores
 * the bytes as a blob whatever the declared type.
 */
export const chatAudioMigration: Migration = {
  name: '0007-chat-audio',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('chat_audio')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('human', 'text')
      .addColumn('content_type', 'text', (column) => column.notNull())
      .addColumn('audio', 'bytea', (column) => column.notNull())
      .addColumn('expires_at', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('chat_audio_expiry').on('chat_audio').columns(['expires_at']).execute();
  },
};
