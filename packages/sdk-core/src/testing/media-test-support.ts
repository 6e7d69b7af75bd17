import type { AgentRoomConnection, AudioOutput, RemoteAudioTrack } from '../server/engines/media/index.js';
import { concatSamples, dominantFrequency, sineTone } from './tone-analysis.js';

/**
 * Helpers shared by the media tests and benchmarks (not used by the server itself).
 */

/** Writes a continuous tone to an audio output until aborted or `durationMs` passes. */
export async function playTone(
  output: Pick<AudioOutput, 'write'>,
  frequency: number,
  durationMs: number,
  signal?: AbortSignal,
  sampleRate = 48_000,
): Promise<void> {
  const frameMs = 20;
  const tone = sineTone(frequency, sampleRate, 1000, 0.4);
  const perFrame = (sampleRate * frameMs) / 1000;
  for (let elapsed = 0; elapsed < durationMs && !signal?.aborted; elapsed += frameMs) {
    const offset = ((elapsed / frameMs) * perFrame) % tone.length;
    await output.write({ samples: tone.subarray(offset, offset + perFrame), sampleRate, channels: 1 });
  }
}

/** Resolves with the first remote audio track of `identity`. */
export function nextAudioTrack(agent: AgentRoomConnection, identity: string, timeoutMs = 15_000): Promise<RemoteAudioTrack> {
  const existing = agent.audioTracks().find((track) => track.participant.identity === identity);
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no audio track from ${identity}`)), timeoutMs);
    const off = agent.on('audioTrack', (track) => {
      if (track.participant.identity !== identity) return;
      clearTimeout(timer);
      off();
      resolve(track);
    });
  });
}

/** Collects `durationMs` of PCM frames (after skipping `skipMs`) and finds the dominant candidate frequency. */
export async function analyseFrames(
  frames: AsyncIterable<{ samples: Int16Array; sampleRate: number; channels: number }>,
  candidates: number[],
  skipMs = 500,
  durationMs = 1500,
): Promise<ReturnType<typeof dominantFrequency>> {
  const blocks: Int16Array[] = [];
  let seenMs = 0;
  let sampleRate = 48_000;
  for await (const frame of frames) {
    sampleRate = frame.sampleRate;
    seenMs += (frame.samples.length / frame.channels / frame.sampleRate) * 1000;
    if (seenMs <= skipMs) continue;
    blocks.push(frame.samples);
    if (seenMs >= skipMs + durationMs) break;
  }
  return dominantFrequency(concatSamples(blocks), sampleRate, candidates);
}

/** Polls until `check` stops throwing (bounded). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return await check();
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw lastError;
}
