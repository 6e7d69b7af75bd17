/** Both VAD backends score 32 ms frames of 16 kHz audio, Silero v5's native frame. */
export const VAD_SAMPLE_RATE = 16_000;
export const VAD_FRAME_SAMPLES = 512;

/** Scores frames of one stream (it may keep state between frames). */
export interface FrameScorer {
  /** Speech likelihood in [0, 1] for a frame of {@link VAD_FRAME_SAMPLES} floats in [-1, 1]. */
  score(frame: Float32Array): Promise<number> | number;
}

/** A VAD model; shared by all streams, each of which gets its own scorer. */
export interface VadBackend {
  readonly name: 'silero' | 'energy';
  createScorer(): FrameScorer;
  close(): Promise<void>;
}
