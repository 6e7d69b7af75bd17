import { pad, t, type NodeSpec } from '../node-spec.js';

export const utilityNodes: NodeSpec[] = [
  {
    type: 'AutoConvert',
    description:
      'Converts each value to what the linked sink takes: anything to a trigger, a context message or number to its text, text to a number or boolean, a text stream to its text once complete.',
    category: { primary: 'core', secondary: 'utility', tags: ['convert', 'types'] },
    pads: [pad.sink('sink', null), pad.source('source', null)],
  },
  {
    type: 'Comment',
    description: 'A note on the graph (Markdown); it does nothing.',
    category: { primary: 'core', secondary: 'utility', tags: ['documentation', 'comment'] },
    pads: [pad.propertySink('text', [t.string()], ''), pad.propertySink('width', [t.integer({ minimum: 160, maximum: 1600 })], 480, { group: 'layout' })],
  },
];
