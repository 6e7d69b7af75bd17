// Browser-side helpers of the test pages (bundled into them): what the page hears.

export interface ToneMeasurement {
  peakFrequency: number;
  toneDb: number;
  floorDb: number;
}

/** Strength of a frequency in `stream` (WebAudio analyser, spectra averaged over `durationMs`) against the floor. */
export async function measureStreamTone(stream: MediaStream, frequency: number, durationMs: number): Promise<ToneMeasurement> {
  const context = new AudioContext({ sampleRate: 48_000 });
  await context.resume();
  const source = context.createMediaStreamSource(stream);
  const analyser = context.createAnalyser();
  analyser.fftSize = 4096;
  analyser.smoothingTimeConstant = 0;
  source.connect(analyser);
  const bins = new Float32Array(analyser.frequencyBinCount);
  const binHz = context.sampleRate / analyser.fftSize;
  const sums = new Float32Array(bins.length);
  let samples = 0;
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    analyser.getFloatFrequencyData(bins);
    for (let index = 0; index < bins.length; index += 1) sums[index]! += Number.isFinite(bins[index]!) ? bins[index]! : -200;
    samples += 1;
  }
  await context.close();
  let peak = 0;
  for (let index = 1; index < sums.length; index += 1) if (sums[index]! > sums[peak]!) peak = index;
  const toneBin = Math.round(frequency / binHz);
  let floor = 0;
  let count = 0;
  for (let index = 5; index < sums.length / 2; index += 1) {
    if (Math.abs(index - toneBin) < 10) continue;
    floor += sums[index]! / samples;
    count += 1;
  }
  return { peakFrequency: peak * binHz, toneDb: sums[toneBin]! / samples, floorDb: floor / count };
}

/** Strength of a frequency in what the agent's audio element plays, over `durationMs`. */
export async function measureAgentTone(frequency: number, durationMs: number): Promise<ToneMeasurement> {
  const stream = document.querySelector('audio')?.srcObject;
  if (!(stream instanceof MediaStream)) throw new Error('no agent audio element');
  return measureStreamTone(stream, frequency, durationMs);
}
