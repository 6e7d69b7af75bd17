import type { GraphNode } from '../graph-document.js';
import { pad, t, type NodeSpec, type PadSpec } from '../node-spec.js';
import { storedPad } from './stored-pads.js';

/** What a context message content can be made of (ContextMessageZip, CreateContextMessage). */
export const CONTENT_TYPES = () => [t.audioClip(), t.videoClip(), t.avClip(), t.string(), t.video(), t.textStream()];

/** SlidingWindow's `clip` is an AV clip when both inputs are linked, a video or audio clip when one is. */
function resolveWindowClip(node: GraphNode, pads: PadSpec[]): PadSpec[] {
  const linked = (id: string) => Boolean(storedPad(node, id)?.previous_pad);
  const video = linked('video');
  const audio = linked('audio');
  const types = video && audio ? [t.avClip()] : video ? [t.videoClip()] : audio ? [t.audioClip()] : [t.videoClip(), t.audioClip(), t.avClip()];
  return pads.map((spec) => (spec.id === 'clip' ? { ...spec, types } : spec));
}

/** Video and clips: frame rates, windows of media, clips into context messages, synthetic test media. */
export const videoNodes: NodeSpec[] = [
  {
    type: 'FPS',
    description: 'Passes on the latest frame of `video_in` at most `fps` times a second (0: none): vision models need a frame now and then, not thirty.',
    category: { primary: 'core', secondary: 'media', tags: ['control', 'fps'] },
    pads: [pad.sink('video_in', [t.video()]), pad.source('video_out', [t.video()]), pad.propertySink('fps', [t.float({ minimum: 0, maximum: 30 })], 0.5)],
  },
  {
    type: 'SlidingWindow',
    description:
      'Keeps the last `window_size_s` seconds of `video` and `audio`; `flush` sends them as one clip on `clip` (a video, audio or AV clip after what is linked) and starts a new window; `reset` empties it.',
    category: { primary: 'core', secondary: 'media', tags: ['control', 'sliding_window'] },
    pads: [
      pad.sink('video', [t.video()]),
      pad.sink('audio', [t.audio()]),
      pad.sink('flush', [t.trigger()]),
      pad.sink('reset', [t.trigger()]),
      pad.source('clip', [t.videoClip(), t.audioClip(), t.avClip()]),
      pad.propertySink('window_size_s', [t.float({ minimum: 0 })], 5),
    ],
    resolvePads: resolveWindowClip,
  },
  {
    type: 'AVClipZip',
    description: 'Pairs one clip from each linked input (`video_clip`, `audio_clip`) into an AV clip on `av_clip`; an unlinked input gives an empty clip.',
    category: { primary: 'core', secondary: 'media', tags: ['control', 'clip', 'zip'] },
    pads: [pad.sink('audio_clip', [t.audioClip()]), pad.sink('video_clip', [t.videoClip()]), pad.source('av_clip', [t.avClip()])],
  },
  {
    type: 'PublisherMetadata',
    description:
      "Passes what reaches `sink` on to `source`, and sets `value` to the `key` of the metadata of the participant who published it (the run's publisher metadata for values no participant sent).",
    category: { primary: 'core', secondary: 'media', tags: ['metadata'] },
    pads: [
      pad.propertySink('key', [t.string()], ''),
      pad.sink('sink', null, { follows: 'source' }),
      pad.propertySource('value', [t.string()], ''),
      pad.source('source', null, { follows: 'sink' }),
    ],
  },
  {
    type: 'BouncingBall',
    description:
      'Synthetic media for trying a graph: 640x480 video at 30 fps of a white ball bouncing, the background changing colour and a 20 ms 440 Hz tone on `audio` at each bounce.',
    category: { primary: 'core', secondary: 'media', tags: ['input', 'stream', 'test'] },
    pads: [pad.source('audio', [t.audio()]), pad.source('video', [t.video()])],
  },
  {
    type: 'ContextMessageZip',
    description:
      'Makes one context message with `role` from one value of each linked `content_{i}`: text as is, a text stream once it ends, a frame as a JPEG image, a video clip as an MP4 video (and sampled frames), an audio clip by its transcription, an AV clip as both.',
    category: { primary: 'ai', secondary: 'llm', tags: ['context', 'message'] },
    pads: [
      pad.propertySink('role', [t.role()], 'user'),
      pad.source('context_message', [t.contextMessage()]),
      pad.propertySink('num_contents', [t.integer({ minimum: 1 })], 1, { group: 'config' }),
    ],
    repeated: [{ count: 'num_contents', min: 1, max: 16, pads: [pad.sink('content_{i}', CONTENT_TYPES(), { group: 'content' })] }],
  },
];
