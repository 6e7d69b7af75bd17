import { pad, t, type NodeSpec } from '../node-spec.js';

/** Media in and out of the run's room. */
export const mediaNodes: NodeSpec[] = [
  {
    type: 'Publish',
    description:
      "A participant's microphone and camera into the graph. The client publishes tracks named `<node id>:audio` and `<node id>:video` (a plain microphone or camera also feeds it); the first participant to do so holds the node while publishing. `audio_enabled` and `video_enabled` say whether audio and video arrive.",
    category: { primary: 'core', secondary: 'media', tags: ['input', 'stream'] },
    pads: [
      pad.source('audio', [t.audio()], { description: 'Audio frames (48 kHz mono).' }),
      pad.source('video', [t.video()], { description: 'Video frames (RGBA, decoded by the platform at the rate the camera sends).' }),
      pad.propertySource('audio_enabled', [t.boolean()], false),
      pad.propertySource('video_enabled', [t.boolean()], false),
    ],
  },
  {
    type: 'Output',
    description:
      "Audio and video to the humans in the room, on the agent's tracks named `<node id>:audio` and `<node id>:video` (VP8, at the size of the first frame). A cancelled producer (TTS barge-in) drops what is queued at once.",
    category: { primary: 'core', secondary: 'media', tags: ['output', 'display'] },
    pads: [
      pad.sink('audio', [t.audio()]),
      pad.sink('video', [t.video()], { description: 'Video frames, shown as they come (the newest when the encoder is busy).' }),
    ],
  },
];
