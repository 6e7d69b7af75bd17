import type { secretRoutes } from '../secrets.js';
import type { GroupExamples } from './route-example.js';
import { at, ids } from './sample-resources.js';

const secret = { id: ids.secret, name: 'OPENAI_KEY', created_at: at(4), updated_at: at(4) };

export const secretExamples: GroupExamples<typeof secretRoutes> = {
  create: { body: { name: 'OPENAI_KEY', value: 'sk-proj-...' }, response: secret },
  update: {
    params: { secret: ids.secret },
    body: { name: 'OPENAI_KEY', value: 'sk-proj-rotated-...' },
    response: { ...secret, updated_at: at(40) },
  },
  delete: { params: { secret: ids.secret }, response: { message: 'Secret deleted' } },
  list: { response: { values: [secret], total_count: 1, next_page: null } },
};
