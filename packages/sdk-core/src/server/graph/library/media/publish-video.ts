import type { RemoteVideoTrack } from '../../../engines/media/index.js';
import type { RuntimeNode } from '../../runtime/graph-node.js';
import { StatelessSourcePad } from '../../runtime/pads.js';

/** The FPS nodes fed by this node's `video` pad, or undefined when anything else is fed too. */
function fpsConsumers(node: RuntimeNode): RuntimeNode[] | undefined {
  const pad = node.pad('video');
  if (!(pad instanceof StatelessSourcePad) || pad.next.length === 0) return undefined;
  const consumers: RuntimeNode[] = [];
  for (const sink of pad.next) {
    const consumer = sink.owner as Partial<RuntimeNode>;
    if (consumer.type !== 'FPS' || sink.id !== 'video_in' || typeof consumer.value !== 'function') return undefined;
    consumers.push(consumer as RuntimeNode);
  }
  return consumers;
}

/**
 * The frame rate this node's readers need: when only FPS nodes read `video`, twice the fastest of their rates (each
 * keeps the newest frame for its next tick), at least 1 and at most 30; otherwise every frame (undefined). The decoder
 * drops the others before converting them to RGBA.
 */
export function neededFrameRate(node: RuntimeNode): number | undefined {
  const consumers = fpsConsumers(node);
  if (!consumers) return undefined;
  let fastest = 0;
  for (const consumer of consumers) {
    const fps = consumer.value('fps');
    if (typeof fps !== 'number' || !Number.isFinite(fps)) return undefined;
    fastest = Math.max(fastest, fps);
  }
  return Math.min(30, Math.max(1, 2 * fastest));
}

/** Calls `changed` when an FPS node reading this node's video gets another rate; returns the unsubscribe function. */
function watchFrameRate(node: RuntimeNode, changed: () => void): () => void {
  const stops = (fpsConsumers(node) ?? []).map((consumer) => consumer.pad('fps')?.onValue(changed) ?? (() => undefined));
  return () => {
    for (const stop of stops) stop();
  };
}

/** Whether a track feeds this Publish node's video: named `<node id>:video`, or a plain camera or screen (no node prefix). */
function feeds(node: RuntimeNode, track: RemoteVideoTrack): boolean {
  if (track.name === `${node.id}:video`) return true;
  return !track.name.includes(':');
}

/**
 * Publish's video: the frames (RGBA, decoded by the platform) of the first participant publishing a camera for this
 * node, while it lasts; then the next one's. `video_enabled` is true while frames flow. Nothing is decoded when the
 * `video` pad is not linked, and only what its FPS readers need when they are all it feeds ({@link neededFrameRate}).
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
      // Read again at another rate when a reader's rate changes; done when the track ends.
      for (let rateChanged = true; rateChanged && !signal.aborted;) {
        rateChanged = false;
        const rate = neededFrameRate(node);
        const stopWatching = watchFrameRate(node, () => {
          if (neededFrameRate(node) !== rate) rateChanged = true;
        });
        try {
          for await (const frame of track.frames(rate === undefined ? {} : { maxFps: rate })) {
            if (signal.aborted || rateChanged) break;
            if (!flowing) {
              flowing = true;
              enabled.push(true);
            }
            video.push({ kind: 'runtime:video', frame, origin: track.participant.identity });
          }
        } finally {
          stopWatching();
        }
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
