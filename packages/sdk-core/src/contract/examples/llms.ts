import type { llmRoutes } from '../llms.js';
import type { GroupExamples } from './route-example.js';
import { ids, sampleBuiltinLlm, sampleProjectLlm } from './sample-resources.js';

const definition = {
  name: sampleProjectLlm.name,
  description: sampleProjectLlm.description,
  headers: [{ key: 'Authorization', value: 'Bearer {{secret:OPENAI_KEY}}' }],
  model: 'gpt-4o-mini',
  post_url: 'https://api.openai.com/v1/chat/completions',
};

export const llmExamples: GroupExamples<typeof llmRoutes> = {
  create: { body: definition, response: sampleProjectLlm },
  list: { response: { values: [sampleBuiltinLlm, sampleProjectLlm], total_count: 2, next_page: null } },
  retrieve: { params: { llm: ids.llm }, response: sampleProjectLlm },
  update: {
    params: { llm: ids.llm },
    body: { ...definition, model: 'gpt-4o' },
    response: { ...sampleProjectLlm, model: 'gpt-4o' },
  },
  delete: { params: { llm: ids.llm }, response: { message: 'LLM deleted' } },
};
