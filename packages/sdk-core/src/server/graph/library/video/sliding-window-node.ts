import type { AudioFrame } from '../../../engines/media/index.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { AudioClip, isAudioPacket } from '../../runtime/stream-values.js';
import { AVClip, VideoClip, isVideoPacket, type VideoFramePacket } from '../../runtime/video-values.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';

const DEFAULT_WINDOW_S = 5;

function windowSeconds(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_WINDOW_S;
}

/** The mono samples of audio frames of one rate (frames of another rate than the first are left out). */
function joinAudio(frames: readonly AudioFrame[]): AudioClip {
  const rate = frames[0]?.sampleRate ?? 48_000;
  const mono = frames
    .filter((frame) => frame.sampleRate === rate)
    .map((frame) => (frame.channels === 1 ? frame.samples : frame.samples.filter((_, index) => index % frame.channels === 0)));
  const samples = new Int16Array(mono.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of mono) {
    samples.set(part, offset);
    offset += part.length;
  }
  return new AudioClip(samples, rate, null);
}

/**
 * SlidingWindow: the last `window_size_s` seconds of `video` (by arrival) and `audio` (by duration); `flush` sends
 * them on `clip` as the linked inputs make it (both: an AV clip; one: its clip) and starts an empty window; `reset`
 * empties the window.
 */
export const slidingWindowNode: NodeImplementation = async (node, signal) => {
  const audio: AudioFrame[] = [];
  let audioSeconds = 0;
  const video: Array<{ packet: VideoFramePacket; arrived: number }> = [];
  const clear = (): void => {
    audio.length = 0;
    audioSeconds = 0;
    video.length = 0;
  };
  const slideVideo = (): void => {
    const oldest = performance.now() - windowSeconds(node.value('window_size_s')) * 1000;
    while (video.length > 0 && video[0]!.arrived < oldest) video.shift();
  };
  const listeners = [
    node.sink('audio').onValue((value) => {
      if (!isAudioPacket(value) || value.kind !== 'runtime:audio') return;
      audio.push(value.frame);
      audioSeconds += value.frame.samples.length / value.frame.channels / value.frame.sampleRate;
      const limit = windowSeconds(node.value('window_size_s'));
      while (audioSeconds > limit && audio.length > 0) {
        const dropped = audio.shift()!;
        audioSeconds -= dropped.samples.length / dropped.channels / dropped.sampleRate;
      }
    }),
    node.sink('video').onValue((value) => {
      if (!isVideoPacket(value)) return;
      video.push({ packet: value, arrived: performance.now() });
      slideVideo();
    }),
    node.sink('flush').onValue(() => {
      slideVideo();
      const frames = new VideoClip(
        video.map((entry) => entry.packet.frame),
        video[0]?.packet.origin,
      );
      const sound = joinAudio(audio);
      const withVideo = node.isLinked('video');
      const withAudio = node.isLinked('audio');
      if (withVideo && withAudio) node.source('clip').push(new AVClip(frames, sound));
      else if (withVideo) node.source('clip').push(frames);
      else if (withAudio) node.source('clip').push(sound);
      clear();
    }),
    node.sink('reset').onValue(clear),
  ];
  await holdUntilAborted(signal, listeners);
};
