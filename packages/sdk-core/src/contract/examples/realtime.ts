import type { realtimeRoutes } from '../realtime.js';
import type { GroupExamples } from './route-example.js';
import { at, ids, SAMPLE_MEDIA_TOKEN, SAMPLE_MEDIA_URL, sampleSession } from './sample-resources.js';

const started = { ...sampleSession, state: 'not_started' as const };

export const realtimeExamples: GroupExamples<typeof realtimeRoutes> = {
  start: {
    description: 'The human joins the LiveKit room of `connection_details` with a LiveKit client SDK; the agent is another participant.',
    body: {
      config: {
        general: { time_limit_s: 600 },
        input: {},
        generative: { llm: ids.builtinLlm, persona: ids.persona, scenario: ids.scenario, context: ids.context, tool_definitions: [ids.tool] },
        output: { answer_message: 'Hello! How can I help with your router?' },
      },
    },
    response: { session: started, connection_details: { url: SAMPLE_MEDIA_URL, token: SAMPLE_MEDIA_TOKEN } },
  },
  update: {
    params: { session: ids.session },
    body: { input: { interruptable: false } },
    response: { ...sampleSession, config: { ...sampleSession.config, input: { interruptable: false, parallel_listening: false } } },
  },
  end: { params: { session: ids.session }, response: { ...sampleSession, state: 'ended', ended_at: at(14) } },
  retrieve: { params: { session: ids.session }, response: sampleSession },
  list: { response: { values: [sampleSession], total_count: 1, next_page: null } },
  agents: {
    response: {
      values: [{ type: 'builtin' }, { type: 'livekit_worker', agent_name: 'support-agent', workers: 2, available: true }],
      workers_listed: true,
    },
  },
  recording: {
    description:
      'The session was started with `general.recording: true` and has ended: a 16 kHz stereo WAV, the human on the left channel, the agent on the right.',
    params: { session: ids.session },
  },
  delete: {
    description: 'Only an ended session can be deleted; its recording goes with it.',
    params: { session: ids.session },
  },
  speak: {
    params: { session: ids.session },
    body: { text: 'One moment, I am checking your router model.' },
    response: sampleSession,
  },
};
