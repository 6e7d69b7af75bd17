import type { RemoteAudioTrack } from '../../../packages/sdk-core/src/server/media/agent-transport.js';
import { analyseFrames } from '../../../packages/sdk-core/src/server/media/media-test-support.js';

export { nextAudioTrack, playTone } from '../../../packages/sdk-core/src/server/media/media-test-support.js';

/** Decodes part of a remote track and finds its dominant frequency. */
export function analyseTrack(track: RemoteAudioTrack, candidates: number[], skipMs = 500, durationMs = 1500) {
  return analyseFrames(track.frames(), candidates, skipMs, durationMs);
}
