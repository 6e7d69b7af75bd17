import type { NodeImplementation } from '../../runtime/graph-node.js';
import { isVideoPacket, type VideoFramePacket } from '../../runtime/video-values.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';

/** How often an FPS node with `fps` 0 (or not a number) looks again. */
const IDLE_RECHECK_MS = 1000;

/**
 * FPS: the latest frame of `video_in` on `video_out` at most `fps` times a second (0: none). A frame is sent once:
 * when the camera stops, so does the output (the engine repeats the last frame; a vision model gains nothing from
 * the same picture twice).
 */
export const fpsNode: NodeImplementation = async (node, signal) => {
  let latest: VideoFramePacket | undefined;
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    const fps = node.value('fps');
    const rate = typeof fps === 'number' && Number.isFinite(fps) && fps > 0 ? Math.min(fps, 30) : 0;
    if (rate > 0 && latest) {
      node.source('video_out').push(latest);
      latest = undefined;
    }
    if (!signal.aborted) timer = setTimeout(tick, rate > 0 ? 1000 / rate : IDLE_RECHECK_MS);
  };
  const unsubscribe = node.sink('video_in').onValue((value) => {
    if (isVideoPacket(value)) latest = value;
  });
  tick();
  await holdUntilAborted(signal, [unsubscribe, () => clearTimeout(timer)]);
};
