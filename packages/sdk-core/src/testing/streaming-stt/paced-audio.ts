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
