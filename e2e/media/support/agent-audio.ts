import type { AgentRoomConnection, AudioOutput, RemoteAudioTrack } from '../../../packages/sdk-core/src/server/media/agent-transport.js';
import { concatSamples, dominantFrequency, sineTone } from '../../../packages/sdk-core/src/server/media/audio/tone-analysis.js';

/** Writes a continuous tone to the agent's output until `signal` aborts (or `durationMs` passes). */
export async function playTone(output: AudioOutput, frequency: number, durationMs: number, signal?: AbortSignal): Promise<void> {
  const frameMs = 20;
  const sampleRate = 48_000;
  const tone = sineTone(frequency, sampleRate, 1000, 0.4);
  const perFrame = (sampleRate * frameMs) / 1000;
  for (let elapsed = 0; elapsed < durationMs && !signal?.aborted; elapsed += frameMs) {
    const offset = ((elapsed / frameMs) * perFrame) % tone.length;
    await output.write({ samples: tone.subarray(offset, offset + perFrame), sampleRate, channels: 1 });
  }
}

/** Waits for the first remote audio track of `identity`. */
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

/** Decodes `durationMs` of a remote track (after skipping `skipMs`) and finds its dominant frequency. */
export async function analyseTrack(track: RemoteAudioTrack, candidates: number[], skipMs = 500, durationMs = 1500) {
  const blocks: Int16Array[] = [];
  let seenMs = 0;
  for await (const frame of track.frames()) {
    const frameMs = (frame.samples.length / frame.sampleRate) * 1000;
    seenMs += frameMs;
    if (seenMs <= skipMs) continue;
    blocks.push(frame.samples);
    if (seenMs >= skipMs + durationMs) break;
  }
  return dominantFrequency(concatSamples(blocks), 48_000, candidates);
}
