/** Speaking rate of a recording. */
export interface SyllableRate {
  syllablesPerSecond: number;
  syllables: number;
  /** Seconds of speech (pauses longer than 300 ms excluded). */
  speakingSeconds: number;
}

/**
 * Estimates syllables per second by counting peaks of the smoothed loudness envelope (vowel nuclei)
 * at least 3 dB above the dips around them and 80 ms apart, over the time spent speaking.
 *
 * @example
 * const { syllablesPerSecond } = estimateSyllableRate(float32Samples, 16000);
 */
export function estimateSyllableRate(samples: Float32Array, sampleRate: number): SyllableRate {
  const hop = Math.round(sampleRate * 0.01);
  const levels: number[] = [];
  for (let start = 0; start + hop <= samples.length; start += hop) {
    let sum = 0;
    for (let index = start; index < start + hop; index++) sum += samples[index]! * samples[index]!;
    levels.push(10 * Math.log10(sum / hop + 1e-10));
  }
  // 50 ms moving average flattens pitch-period ripple but keeps syllable-scale modulation.
  const smoothed = levels.map((_, index) => {
    let sum = 0;
    let count = 0;
    for (let offset = -2; offset <= 2; offset++) {
      const value = levels[index + offset];
      if (value !== undefined) {
        sum += value;
        count++;
      }
    }
    return sum / count;
  });
  const loudest = Math.max(...smoothed);
  const speechGate = loudest - 30;
  const speaking = smoothed.map((level) => level > speechGate);

  // Speaking time: speech frames plus gaps shorter than 300 ms.
  let speakingFrames = 0;
  let gap = 0;
  let seenSpeech = false;
  for (const isSpeech of speaking) {
    if (isSpeech) {
      if (seenSpeech && gap < 30) speakingFrames += gap;
      speakingFrames++;
      gap = 0;
      seenSpeech = true;
    } else gap++;
  }

  let syllables = 0;
  let lastPeak = -Infinity;
  let valley = Infinity;
  for (let index = 1; index < smoothed.length - 1; index++) {
    const level = smoothed[index]!;
    valley = Math.min(valley, level);
    const isPeak = level >= smoothed[index - 1]! && level > smoothed[index + 1]!;
    if (!isPeak || level < speechGate + 6) continue;
    // The dip to the next peak must also be real: look ahead for a 3 dB fall.
    let ahead = index + 1;
    let nextValley = level;
    while (ahead < smoothed.length && smoothed[ahead]! <= level) {
      nextValley = Math.min(nextValley, smoothed[ahead]!);
      if (level - nextValley >= 3) break;
      ahead++;
    }
    if (level - valley >= 3 && (level - nextValley >= 3 || ahead >= smoothed.length) && index - lastPeak >= 8) {
      syllables++;
      lastPeak = index;
      valley = Infinity;
    }
  }
  const speakingSeconds = speakingFrames * 0.01;
  return { syllables, speakingSeconds, syllablesPerSecond: speakingSeconds > 0 ? syllables / speakingSeconds : 0 };
}
