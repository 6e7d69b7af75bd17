/** Something that takes PCM16 frames (a streaming STT stream). */
export interface FrameSink {
  push(pcm: Int16Array): void;
}

/**
 * Pushes `pcm` in `frameMs` frames at the pace of the audio (`speed` 2: twice as fast), as a microphone would,
 * so a vendor (or its fake) sees audio arrive on its own timeline.
 *
 * @example
 * await pushPaced(stream, speech.pcm, speech.sampleRate);
 */
export async function pushPaced(sink: FrameSink, pcm: Int16Array, sampleRate: number, options: { frameMs?: number; speed?: number } = {}): Promise<void> {
  const frame = Math.max(1, Math.round((sampleRate * (options.frameMs ?? 20)) / 1000));
  const speed = options.speed ?? 1;
  const started = performance.now();
  for (let offset = 0; offset < pcm.length; offset += frame) {
    sink.push(pcm.subarray(offset, offset + frame));
    const due = started + ((offset + frame) / sampleRate / speed) * 1000;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * A tone burst with silence around it: speech to an energy VAD (a vowel-like 220 Hz tone with a harmonic).
 *
 * @example
 * const pcm = toneBurst(16000, { leadMs: 200, toneMs: 900, tailMs: 600 });
 */
export function toneBurst(sampleRate: number, { leadMs = 200, toneMs = 800, tailMs = 600, amplitude = 8000 } = {}): Int16Array {
  const lead = Math.round((sampleRate * leadMs) / 1000);
  const tone = Math.round((sampleRate * toneMs) / 1000);
  const pcm = new Int16Array(lead + tone + Math.round((sampleRate * tailMs) / 1000));
  for (let index = 0; index < tone; index++) {
    const time = index / sampleRate;
    pcm[lead + index] = Math.round(amplitude * (0.7 * Math.sin(2 * Math.PI * 220 * time) + 0.3 * Math.sin(2 * Math.PI * 440 * time)));
  }
  return pcm;
}

/** `ms` of digital silence. */
export function silence(sampleRate: number, ms: number): Int16Array {
  return new Int16Array(Math.round((sampleRate * ms) / 1000));
}

/**
 * Where the fakes' energy VAD hears speech in `pcm`: from the first to the end of the last 10 ms frame above
 * `thresholdDbfs` (their default, -45 dBFS), in seconds.
 *
 * @example
 * const { start, end } = loudSpan(audio, 16000);
 */
export function loudSpan(pcm: Int16Array, sampleRate: number, thresholdDbfs = -45): { start: number; end: number } {
  const frame = Math.round(sampleRate / 100);
  let first = -1;
  let last = -1;
  for (let offset = 0; offset + frame <= pcm.length; offset += frame) {
    let sum = 0;
    for (let index = offset; index < offset + frame; index++) sum += pcm[index]! ** 2;
    if (20 * Math.log10(Math.sqrt(sum / frame) / 32768) > thresholdDbfs) {
      if (first < 0) first = offset;
      last = offset;
    }
  }
  return first < 0 ? { start: 0, end: 0 } : { start: first / sampleRate, end: (last + frame) / sampleRate };
}
