import type { partnerRoutes } from '../partner.js';
import type { GroupExamples } from './route-example.js';
import { ids, SAMPLE_MEDIA_TOKEN, SAMPLE_MEDIA_URL, sampleSession } from './sample-resources.js';

export const partnerExamples: GroupExamples<typeof partnerRoutes> = {
  startAvatarSession: {
    body: {
      conversation_id: 'conv-1',
      avatar_agent_id: 'avatar-7',
      config: { general: {}, input: {}, generative: { voice_override: ids.voice }, output: { answer_message: 'Hi, nice to see you!' } },
    },
    response: { session: { ...sampleSession, state: 'not_started' }, connection_details: { url: SAMPLE_MEDIA_URL, token: SAMPLE_MEDIA_TOKEN } },
  },
  avatarAction: { params: { session: ids.session }, body: { action: 'wave' } },
};
