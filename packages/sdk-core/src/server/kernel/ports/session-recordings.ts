/** A finished recording of a realtime session: a WAV file and what it holds. */
export interface SessionRecording {
  sessionId: string;
  project: string;
  /** The file (`audio/wav`). */
  wav: Uint8Array;
  channels: number;
  sampleRate: number;
  durationMs: number;
}

/**
 * Where the voice agent leaves the recording of a session started with `general.recording: true` when it stops
 * (the domain stores it; `GET /v1/realtime/{session}/recording` serves it; decision 0112).
 *
 * @example
 * await recordings.save({ sessionId: 'rts_1', project: 'prj_1', wav, channels: 2, sampleRate: 16000, durationMs: 4200 });
 */
export interface SessionRecordings {
  save(recording: SessionRecording): Promise<void>;
}
