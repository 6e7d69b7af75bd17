import type { appRoutes } from '../apps.js';
import type { GroupExamples } from './route-example.js';
import { at, ids, sampleApp, sampleGraph } from './sample-resources.js';

const firstVersion = { ...sampleApp, version: 1, graph: { nodes: [], portals: [] }, created_at: at(19) };

export const appExamples: GroupExamples<typeof appRoutes> = {
  create: { body: { name: sampleApp.name }, response: firstVersion },
  list: { response: [sampleApp] },
  examples: { response: [{ ...sampleApp, id: 'app_example_echo', name: 'Echo', description: 'What you say comes straight back.', version: 1 }] },
  retrieve: { params: { app: ids.app }, query: { version: 2 }, response: sampleApp },
  update: {
    description: '`version` is the newest version the change is based on; the answer is the new version.',
    params: { app: ids.app },
    body: { graph: sampleGraph, version: 1 },
    response: sampleApp,
  },
  publish: { params: { id: ids.app }, body: { version: 2 }, response: sampleApp },
  versions: {
    params: { id: ids.app },
    response: { newest: sampleApp, published: sampleApp, all: { items: [sampleApp, firstVersion], total_count: 2, next_page: null } },
  },
  delete: { params: { id: ids.app } },
};
