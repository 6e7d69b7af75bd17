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
};
