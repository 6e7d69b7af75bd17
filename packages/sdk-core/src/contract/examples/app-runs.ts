import type { appRunRoutes } from '../app-runs.js';
import type { GroupExamples } from './route-example.js';
import { ids, SAMPLE_MEDIA_TOKEN, SAMPLE_MEDIA_URL, sampleGraph } from './sample-resources.js';

const connection_details = { url: SAMPLE_MEDIA_URL, token: SAMPLE_MEDIA_TOKEN };

export const appRunExamples: GroupExamples<typeof appRunRoutes> = {
  create: {
    body: {
      app: ids.app,
      publisher_metadata: { ticket: 'T-1042' },
      overrides: [{ node: 'greeting', pad: 'text', value: { type: 'string', value: 'Hello Ada!' } }],
    },
    response: { app_run: { id: ids.run, app: ids.app, version: 2 }, connection_details },
  },
  createFromGraph: { body: { graph: sampleGraph, recording: true }, response: { app_run: { id: ids.run }, connection_details } },
  pushPadValue: {
    description: 'Sets the value of a property pad of the running graph.',
    params: { run: ids.run },
    body: { node: 'greeting', pad: 'text', value: { type: 'string', value: 'Welcome back!' } },
  },
  recording: {
    description: 'The run was started with `recording: true` and has ended: a 16 kHz stereo WAV, the humans on the left channel, the graph on the right.',
    params: { run: ids.run },
  },
  delete: {
    description: 'Only an ended run can be deleted; its recording goes with it.',
    params: { run: ids.run },
  },
  debug: { body: { run_id: ids.run }, response: { graph: sampleGraph, connection_details } },
};
