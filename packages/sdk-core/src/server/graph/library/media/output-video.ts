import type { VideoFrame, VideoOutput } from '../../../engines/media/index.js';
import type { RuntimeNode } from '../../runtime/graph-node.js';
import { isVideoPacket } from '../../runtime/video-values.js';

/**
 * Output's video: frames arriving on `video` are shown to the room on the agent's video track `<node id>:video`,
 * published with the first frame at its size (later frames of another size are scaled to it). A producer faster than
 * the encoder loses its older frames: the newest is sent next.
 *
 * @example
 * await Promise.all([outputAudio(node, signal), outputVideo(node, signal)]);
 */
export async function outputVideo(node: RuntimeNode, signal: AbortSignal): Promise<void> {
  const room = node.environment.room;
  if (!room || !node.isLinked('video')) return;
  let latest: VideoFrame | undefined;
  let wake: (() => void) | undefined;
  const unsubscribe = node.sink('video').onValue((value) => {
    if (!isVideoPacket(value)) return;
    latest = value.frame;
    wake?.();
  });
  const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  let output: VideoOutput | undefined;
  try {
    while (!signal.aborted) {
      const frame = latest;
      latest = undefined;
      if (!frame) {
        await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
        wake = undefined;
        continue;
      }
      output ??= await room.publishVideo({ name: `${node.id}:video`, width: frame.width, height: frame.height });
      await output.write(frame);
    }
  } finally {
    unsubscribe();
    await output?.close().catch(() => undefined);
  }
}
