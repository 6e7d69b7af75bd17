import type { RemoteVideoTrack } from '../../../engines/media/index.js';
import type { RuntimeNode } from '../../runtime/graph-node.js';

/** Whether a track feeds this Publish node's video: named `<node id>:video`, or a plain camera or screen (no node prefix). */
function feeds(node: RuntimeNode, track: RemoteVideoTrack): boolean {
  if (track.name === `${node.id}:video`) return true;
  return !track.name.includes(':');
}

/**
 * Publish's video: the frames (RGBA, decoded by the platform) of the first participant publishing a camera for this
 * node, while it lasts; then the next one's. `video_enabled` is true while frames flow. Nothing is decoded when the
 * `video` pad is not linked.
 *
 * @example
 * await Promise.all([publishAudio(node, signal), publishVideo(node, signal)]);
 */
export async function publishVideo(node: RuntimeNode, signal: AbortSignal): Promise<void> {
  const room = node.environment.room;
  if (!room || !node.isLinked('video')) return;
  const video = node.source('video');
  const enabled = node.propertySource('video_enabled');
  const waiting: RemoteVideoTrack[] = [];
  let current: RemoteVideoTrack | undefined;

  const consume = async (track: RemoteVideoTrack): Promise<void> => {
    current = track;
    node.log('info', `video from '${track.participant.identity}'`, 'video');
    let flowing = false;
    try {
      for await (const frame of track.frames()) {
        if (signal.aborted) break;
        if (!flowing) {
          flowing = true;
          enabled.push(true);
        }
        video.push({ kind: 'runtime:video', frame, origin: track.participant.identity });
      }
    } finally {
      current = undefined;
      if (flowing) enabled.push(false);
      const next = waiting.shift();
      if (next && !signal.aborted) void consume(next);
    }
  };
  const offer = (track: RemoteVideoTrack): void => {
    if (signal.aborted || !feeds(node, track)) return;
    if (current) waiting.push(track);
    else void consume(track);
  };
  const unsubscribe = room.on('videoTrack', offer);
  for (const track of room.videoTracks()) offer(track);
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  unsubscribe();
}
