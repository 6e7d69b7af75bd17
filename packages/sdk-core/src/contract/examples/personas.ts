import type { personaRoutes } from '../personas.js';
import type { GroupExamples } from './route-example.js';
import { ids, samplePersona } from './sample-resources.js';

export const personaExamples: GroupExamples<typeof personaRoutes> = {
  list: {
    query: { page_size: 20 },
    response: { values: [samplePersona], total_count: 1, next_page: null },
  },
  retrieve: { params: { persona_id: ids.persona }, response: samplePersona },
  update: {
    params: { persona_id: ids.persona },
    body: { description: 'A patient tutor who explains things step by step, with an example for each step.' },
    response: { ...samplePersona, description: 'A patient tutor who explains things step by step, with an example for each step.' },
  },
  delete: { params: { persona_id: ids.persona }, response: { message: 'Persona deleted' } },
  create: {
    body: { name: 'Ada', description: 'A patient tutor who explains things step by step.', voice: ids.voice, gender: 'female' },
    response: samplePersona,
  },
};
