import type { scenarioRoutes } from '../scenarios.js';
import type { GroupExamples } from './route-example.js';
import { ids, sampleScenario } from './sample-resources.js';

export const scenarioExamples: GroupExamples<typeof scenarioRoutes> = {
  list: { response: { values: [sampleScenario], total_count: 1, next_page: null } },
  retrieve: { params: { scenario_id: ids.scenario }, response: sampleScenario },
  update: {
    params: { scenario_id: ids.scenario },
    body: { prompt: 'Help the caller reset their home router. Keep every answer under three sentences.' },
    response: { ...sampleScenario, prompt: 'Help the caller reset their home router. Keep every answer under three sentences.' },
  },
  delete: { params: { scenario_id: ids.scenario }, response: { message: 'Scenario deleted' } },
  create: {
    body: { name: sampleScenario.name, project: ids.project, prompt: sampleScenario.prompt },
    response: sampleScenario,
  },
};
