import type { toolRoutes } from '../tools.js';
import type { GroupExamples } from './route-example.js';
import { ids, sampleTool } from './sample-resources.js';

const definition = {
  name: sampleTool.name,
  description: sampleTool.description,
  parameters: sampleTool.parameters,
  call_settings: { destination: sampleTool.call_settings.destination },
};

export const toolExamples: GroupExamples<typeof toolRoutes> = {
  create: { body: definition, response: sampleTool },
  retrieve: { params: { tool: ids.tool }, response: sampleTool },
  update: {
    params: { tool: ids.tool },
    body: { ...definition, call_settings: { destination: { type: 'client_app' } } },
    response: { ...sampleTool, call_settings: { id: sampleTool.call_settings.id, destination: { type: 'client_app' } } },
  },
  delete: { params: { tool: ids.tool } },
  list: { response: { values: [sampleTool], total_count: 1, next_page: null } },
};
