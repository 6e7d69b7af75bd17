import { analyseFrames, type RemoteAudioTrack } from '@palaver/sdk-core/testing';

export { nextAudioTrack, playTone } from '@palaver/sdk-core/testing';

/** Decodes part of a remote track and finds its dominant frequency. */
export function analyseTrack(track: RemoteAudioTrack, candidates: number[], skipMs = 500, durationMs = 1500) {
  return analyseFrames(track.frames(), candidates, skipMs, durationMs);
}
