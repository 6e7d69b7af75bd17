import { pad, t, type NodeSpec } from '../node-spec.js';

/** Inputs a client fires through `push_pad_value` or the `runtime_api` topic. */
export const inputNodes: NodeSpec[] = [
  {
    type: 'ChatInput',
    description: 'Text a client pushes into the graph (`push_value` on `output`).',
    category: { primary: 'core', secondary: 'debug', tags: ['input', 'text'] },
    pads: [pad.source('output', [t.string()], { group: 'text' })],
  },
  {
    type: 'ButtonTrigger',
    description: 'A trigger a client fires (`push_value` on `trigger`).',
    category: { primary: 'core', secondary: 'utility', tags: ['trigger', 'debug'] },
    pads: [pad.source('trigger', [t.trigger()])],
  },
];
