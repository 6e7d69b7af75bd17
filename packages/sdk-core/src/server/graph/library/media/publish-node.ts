import type { RemoteAudioTrack } from '../../../engines/media/index.js';
import type { NodeImplementation, RuntimeNode } from '../../runtime/graph-node.js';
import { publishVideo } from './publish-video.js';

/** Whether a track feeds this Publish node: named `<node id>:audio`, or a plain microphone (no node prefix). */
function feeds(node: RuntimeNode, track: RemoteAudioTrack): boolean {
  if (track.name === `${node.id}:audio`) return true;
  return !track.name.includes(':');
}

/**
 * Publish: the audio of the first participant publishing a track for this node, frame by frame, while it
 * lasts; then the next one's. `audio_enabled` is true while a track flows. Video likewise ({@link publishVideo}).
 */
export const publishNode: NodeImplementation = async (node, signal) => {
  await Promise.all([publishAudio(node, signal), publishVideo(node, signal)]);
};

async function publishAudio(node: RuntimeNode, signal: AbortSignal): Promise<void> {
  const room = node.environment.room;
  if (!room) {
    node.log('warning', 'no room: nothing is published');
    return;
  }
  const audio = node.source('audio');
  const enabled = node.propertySource('audio_enabled');
  const waiting: RemoteAudioTrack[] = [];
  let current: RemoteAudioTrack | undefined;

  const consume = async (track: RemoteAudioTrack): Promise<void> => {
    current = track;
    enabled.push(true);
    node.log('info', `audio from '${track.participant.identity}'`, 'audio');
    try {
      for await (const frame of track.frames()) {
        if (signal.aborted) break;
        audio.push({ kind: 'runtime:audio', frame, origin: track.participant.identity });
      }
    } finally {
      current = undefined;
      const next = waiting.shift();
      if (next && !signal.aborted) void consume(next);
      else enabled.push(false);
    }
  };
  const offer = (track: RemoteAudioTrack): void => {
    if (signal.aborted || !feeds(node, track)) return;
    if (current) waiting.push(track);
    else void consume(track);
  };
  const unsubscribe = room.on('audioTrack', offer);
  for (const track of room.audioTracks()) offer(track);
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  unsubscribe();
}
