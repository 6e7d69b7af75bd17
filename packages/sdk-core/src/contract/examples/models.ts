import type { modelRoutes } from '../models.js';
import type { GroupExamples } from './route-example.js';
import { ids } from './sample-resources.js';

const builtin = { id: ids.builtinLlm, object: 'model', created: 1735689600, owned_by: 'palaver' } as const;
const project = { id: ids.llm, object: 'model', created: 1748856300, owned_by: ids.project } as const;

export const modelExamples: GroupExamples<typeof modelRoutes> = {
  list: { response: { object: 'list', data: [builtin, project] } },
  retrieve: { params: { model: ids.builtinLlm }, response: builtin },
};
