import type { openAiRealtimeRoutes } from '../openai-realtime.js';
import type { GroupExamples } from './route-example.js';
import { ids } from './sample-resources.js';

export const openAiRealtimeExamples: GroupExamples<typeof openAiRealtimeRoutes> = {
  createClientSecret: {
    description: 'Made by your server for one human; their browser opens `/v1/realtime?model=builtin-offline` with `value` as its key.',
    human: 'user_1234',
    body: { expires_after: { anchor: 'created_at', seconds: 600 }, session: { type: 'realtime', model: ids.builtinLlm } },
    response: {
      value: 'ek_eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJwcmoiOiJwcm9qXzEiLCJzdWIiOiJ1c2VyXzEyMzQifQ.c2lnbmF0dXJl',
      expires_at: 1748857201,
      session: { type: 'realtime', object: 'realtime.session', model: ids.builtinLlm },
    },
  },
  createCall: {
    description:
      "A browser's `OpenAIRealtimeWebRTC` (the default transport of `@openai/agents-realtime`'s `RealtimeSession`) posts its offer as `application/sdp`; the answer is the server's SDP, `Location: /v1/realtime/calls/rtc_…`.",
    query: { model: ids.builtinLlm },
    body: { sdp: 'v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0 1\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n…' },
  },
  hangupCall: {
    description: 'Ends the call: its conversation, its peer and the human’s conversational seconds.',
    params: { call_id: 'rtc_5b1f0c3e9a7d4e21b8f6a0c2d4e6f8a1' },
  },
};
