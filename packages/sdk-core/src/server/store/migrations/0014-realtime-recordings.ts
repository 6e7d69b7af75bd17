import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Recordings of realtime sessions started with `general.recording: true` (decision 0112): one WAV per session,
 * written when its agent stops, served by `GET /v1/realtime/{session}/recording`, deleted with the session.
 */
export const realtimeRecordingsMigration: Migration = {
  name: '0014-realtime-recordings',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('realtime_recordings')
      .addColumn('session_id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('content_type', 'text', (column) => column.notNull())
      .addColumn('channels', 'integer', (column) => column.notNull())
      .addColumn('sample_rate', 'integer', (column) => column.notNull())
      .addColumn('duration_ms', 'integer', (column) => column.notNull())
      .addColumn('audio', 'bytea', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
  },
};
