import type { subgraphRoutes } from '../subgraphs.js';
import type { GroupExamples } from './route-example.js';
import { at, ids, sampleGraph, sampleSubGraph } from './sample-resources.js';

const builtin = {
  ...sampleSubGraph,
  id: 'subgraph_default_echo',
  name: 'Echo',
  project: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

export const subgraphExamples: GroupExamples<typeof subgraphRoutes> = {
  create: { body: { name: sampleSubGraph.name, graph: sampleGraph }, response: { ...sampleSubGraph, updated_at: sampleSubGraph.created_at } },
  list: { response: [sampleSubGraph, builtin] },
  listDefault: { response: [builtin] },
  retrieve: { params: { id: ids.subgraph }, response: sampleSubGraph },
  update: {
    params: { id: ids.subgraph },
    body: { name: 'Echo pipeline (v2)', graph: sampleGraph },
    response: { ...sampleSubGraph, name: 'Echo pipeline (v2)', updated_at: at(27) },
  },
  delete: { params: { id: ids.subgraph } },
};
