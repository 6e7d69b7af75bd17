/** A stretch of speech in a recording, in samples. */
export interface SpeechSpan {
  start: number;
  end: number;
}

const FRAME_SECONDS = 0.02;
/** Frames this far below the loudest frame count as silence. */
const SILENCE_BELOW_PEAK_DB = 35;
/** Quieter than this is silence however quiet the recording. */
const SILENCE_FLOOR_DB = -60;
/** Pauses shorter than this stay inside a segment. */
const MIN_PAUSE_SECONDS = 0.35;
/** Speech shorter than this is a click, not a segment. */
const MIN_SPEECH_SECONDS = 0.1;
/** Kept around each segment, so its first and last sounds are not cut. */
const PAD_SECONDS = 0.1;

/**
 * The spans of speech in a mono recording, cut at its pauses: frames of 20 ms whose level is within 35 dB of the
 * loudest frame (and above -60 dBFS) are speech; pauses under 350 ms do not cut, bursts under 100 ms are dropped,
 * each span keeps 100 ms on either side.
 *
 * @example
 * speechSpans(pcm, 16000, rmsDecibels) // [{ start: 1600, end: 20800 }, ...]
 */
export function speechSpans(pcm: Int16Array, sampleRate: number, decibels: (frame: Int16Array) => number): SpeechSpan[] {
  const frame = Math.max(1, Math.round(sampleRate * FRAME_SECONDS));
  const levels: number[] = [];
  for (let offset = 0; offset < pcm.length; offset += frame) levels.push(decibels(pcm.subarray(offset, offset + frame)));
  const peak = Math.max(...levels.filter(Number.isFinite), SILENCE_FLOOR_DB);
  const threshold = Math.max(peak - SILENCE_BELOW_PEAK_DB, SILENCE_FLOOR_DB);
  const runs: SpeechSpan[] = [];
  levels.forEach((level, index) => {
    if (!(level > threshold)) return;
    const last = runs.at(-1);
    if (last && index - last.end <= MIN_PAUSE_SECONDS / FRAME_SECONDS) last.end = index + 1;
    else runs.push({ start: index, end: index + 1 });
  });
  const pad = Math.round(PAD_SECONDS / FRAME_SECONDS);
  return runs
    .filter((run) => (run.end - run.start) * FRAME_SECONDS >= MIN_SPEECH_SECONDS)
    .map((run) => ({ start: Math.max(0, (run.start - pad) * frame), end: Math.min(pcm.length, (run.end + pad) * frame) }));
}
