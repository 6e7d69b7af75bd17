import type { Transaction } from 'kysely';
import type { SessionRecording, SessionRecordings } from '../../kernel/ports/session-recordings.js';
import type { Store } from '../../store/database.js';
import type { Database, RealtimeRecordingRow } from '../../store/tables.js';

/**
 * Recordings of realtime sessions in the `realtime_recordings` table (decision 0112): one WAV per session, saved
 * by the voice agent when it stops, read by `GET /v1/realtime/{session}/recording`, deleted with the session.
 * Callers check that the session is visible to the principal first: rows are keyed by session and project only.
 *
 * @example
 * await recordings.save({ sessionId, project, wav, channels: 2, sampleRate: 16000, durationMs });
 * const row = await recordings.find(project, sessionId);
 */
export class RecordingStore implements SessionRecordings {
  constructor(private readonly store: Store) {}

  async save(recording: SessionRecording): Promise<void> {
    const { wav } = recording;
    const row = {
      session_id: recording.sessionId,
      project: recording.project,
      content_type: 'audio/wav',
      channels: recording.channels,
      sample_rate: recording.sampleRate,
      duration_ms: Math.round(recording.durationMs),
      audio: Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength),
      created_at: new Date().toISOString(),
    };
    await this.store.transaction(async (transaction) => {
      // The agent saves after the session ended: a session deleted in between keeps nothing.
      const session = await transaction
        .selectFrom('documents')
        .select('id')
        .where('id', '=', row.session_id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!session) return;
      // A session's agent records once; a restarted agent (the same session hosted again) replaces the file.
      await transaction
        .insertInto('realtime_recordings')
        .values(row)
        .onConflict((conflict) => conflict.column('session_id').doUpdateSet({ audio: row.audio, duration_ms: row.duration_ms, created_at: row.created_at }))
        .execute();
    });
  }

  async find(project: string, sessionId: string): Promise<RealtimeRecordingRow | undefined> {
    return this.store.db.selectFrom('realtime_recordings').selectAll().where('session_id', '=', sessionId).where('project', '=', project).executeTakeFirst();
  }

  async delete(project: string, sessionId: string, executor: Transaction<Database> | Store['db'] = this.store.db): Promise<void> {
    await executor.deleteFrom('realtime_recordings').where('session_id', '=', sessionId).where('project', '=', project).execute();
  }
}
