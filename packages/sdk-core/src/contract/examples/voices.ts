import type { voiceRoutes } from '../voices.js';
import type { GroupExamples } from './route-example.js';
import { at, ids, sampleVoice } from './sample-resources.js';

const clonedVoice = {
  ...sampleVoice,
  id: 'voice_01m8d9s9c4kq2y7n3b5t8w1x6z',
  created_at: at(30),
  name: 'Narrator',
  language: 'en',
  tags: [{ name: 'use:narration', human_name: 'use:narration' }],
  project: ids.project,
  human: ids.human,
};

export const voiceExamples: GroupExamples<typeof voiceRoutes> = {
  clone: {
    description: 'A multipart form: the name, the language and the recording as `file`.',
    body: { name: 'Narrator', language: 'en', file: 'recording.mp3' },
    response: clonedVoice,
  },
  generate: { body: { text: 'Hello there! Your router is back online.', voice_id: ids.voice } },
  retrieve: { params: { voice_id: ids.voice }, response: sampleVoice },
  update: {
    params: { voice_id: clonedVoice.id },
    body: { name: 'Narrator', language: 'en', tags: ['use:narration'] },
    response: clonedVoice,
  },
  delete: { params: { voice_id: clonedVoice.id }, response: { message: 'Voice deleted' } },
  list: {
    query: { tags: ['gender:female'], page_size: 20 },
    response: { values: [sampleVoice], total_count: 1, next_page: null },
  },
};
