import type { contextRoutes } from '../contexts.js';
import type { GroupExamples } from './route-example.js';
import { at, ids, sampleContext, sampleFirstMessage, sampleMessage } from './sample-resources.js';

const memoryNodes = [
  { id: 'memnode_01m8d9s6wfdern4a52a1xq80zt', created_at: at(3), updated_at: at(3), name: 'user', summary: "user's name is Ada. user lives in Lisbon." },
  { id: 'memnode_01m8d9s6wm68vfhnn1zehy94s0', created_at: at(3), updated_at: at(3), name: 'Lisbon', summary: 'user lives in Lisbon.' },
];

export const contextExamples: GroupExamples<typeof contextRoutes> = {
  create: {
    body: { persona: ids.persona, scenario: ids.scenario, messages: [{ role: 'user', content: 'Hi! My router keeps dropping the connection.' }] },
    response: sampleContext,
  },
  list: {
    description: 'The ids are comma-separated: `?context_ids=context_1,context_2`.',
    query: { context_ids: [ids.context] },
    response: { values: [sampleContext], total_count: 1, next_page: null },
  },
  retrieve: { params: { context: ids.context }, response: { ...sampleContext, latest_messages: [sampleFirstMessage, sampleMessage] } },
  listMessages: {
    params: { context: ids.context },
    query: { page_size: 50 },
    response: { values: [sampleFirstMessage, sampleMessage], total_count: 2, next_page: null },
  },
  createMessage: {
    description: "With `advanced_memory`, the message is also read into the context's memory graph.",
    params: { context: ids.context },
    body: { role: 'user', content: 'My name is Ada and I live in Lisbon.', advanced_memory: true },
    response: sampleMessage,
  },
  retrieveMessage: { params: { context: ids.context, message: ids.message }, response: sampleMessage },
  queryAdvancedMemory: {
    params: { context: ids.context },
    body: { new_user_message: 'Where do I live?' },
    response: {
      nodes: memoryNodes,
      edges: [
        {
          id: 'memedge_01m8d9s6wm68vfhnn1zehy94s1',
          created_at: at(3),
          updated_at: at(3),
          source_node: memoryNodes[0]!.id,
          target_node: memoryNodes[1]!.id,
          fact: 'user lives in Lisbon',
          relation: 'lives_in',
        },
      ],
    },
  },
};
