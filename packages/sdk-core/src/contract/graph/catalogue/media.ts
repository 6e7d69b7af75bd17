import { pad, t, type NodeSpec } from '../node-spec.js';

/** Media in and out of the run's room. */
export const mediaNodes: NodeSpec[] = [
  {
    type: 'Publish',
    description:
      "A participant's microphone (and camera) into the graph. The client publishes a track named `<node id>:audio`; the first participant to do so holds the node while publishing. `audio_enabled` says whether audio arrives.",
    category: { primary: 'core', secondary: 'media', tags: ['input', 'stream'] },
    pads: [
      pad.source('audio', [t.audio()], { description: 'Audio frames (48 kHz mono).' }),
      pad.source('video', [t.video()], { description: 'Video is not carried yet: nothing is pushed here.' }),
      pad.propertySource('audio_enabled', [t.boolean()], false),
      pad.propertySource('video_enabled', [t.boolean()], false),
    ],
  },
  {
    type: 'Output',
    description:
      "Audio to the humans in the room, on the agent's track named `<node id>:audio`. A cancelled producer (TTS barge-in) drops what is queued at once.",
    category: { primary: 'core', secondary: 'media', tags: ['output', 'display'] },
    pads: [pad.sink('audio', [t.audio()]), pad.sink('video', [t.video()], { description: 'Video is not carried yet: ignored.' })],
  },
];
