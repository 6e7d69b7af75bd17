import { createAudioAnalyser, type LocalAudioTrack, type RemoteAudioTrack } from 'livekit-client';

/** Which side's audio a level reading is about. */
export type AudioSource = 'agent' | 'microphone';

/** Loudness of one audio track, read on demand (no timers: call it from the app's animation frame). */
export interface AudioLevelMeter {
  /** Overall volume, 0..1. */
  volume(): number;
  /** `count` frequency bands (low to high, speech range), each 0..1. */
  bands(count: number): number[];
  close(): void;
}

/** Speech sits below ~4 kHz: bands cover the lower fraction of the analyser's bins. */
const SPEECH_FRACTION = 0.35;

/** A meter of `track`; `smoothing` (0..1, default 0.6 for visualizers; 0 for timing) evens the readings out. */
export function createAudioLevelMeter(track: LocalAudioTrack | RemoteAudioTrack, options: { smoothing?: number } = {}): AudioLevelMeter {
  const { analyser, calculateVolume, cleanup } = createAudioAnalyser(track, { fftSize: 512, smoothingTimeConstant: options.smoothing ?? 0.6 });
  const bins = new Uint8Array(analyser.frequencyBinCount);
  return {
    volume: () => Math.min(1, calculateVolume()),
    bands(count) {
      analyser.getByteFrequencyData(bins);
      const used = Math.max(count, Math.floor(bins.length * SPEECH_FRACTION));
      const width = used / count;
      const result: number[] = [];
      for (let band = 0; band < count; band += 1) {
        let sum = 0;
        const start = Math.floor(band * width);
        const stop = Math.max(start + 1, Math.floor((band + 1) * width));
        for (let index = start; index < stop; index += 1) sum += bins[index]!;
        result.push(sum / (stop - start) / 255);
      }
      return result;
    },
    close: () => void cleanup(),
  };
}
