import { pad, t, type NodeSpec } from '../node-spec.js';

/** Time: delays and periodic counters. */
export const timingNodes: NodeSpec[] = [
  {
    type: 'Delay',
    description: 'Sends each value that reaches `sink` on `source` `delay_ms` milliseconds later, in the order they arrived.',
    category: { primary: 'core', secondary: 'timing', tags: ['delay'] },
    pads: [pad.sink('sink', null), pad.source('source', null, { follows: 'sink' }), pad.propertySink('delay_ms', [t.integer({ minimum: 0 })], 1000)],
  },
  {
    type: 'Ticker',
    description:
      'Adds one to `tick` every `interval_ms` milliseconds (10 at least) while `active` is true; `reset` puts `tick` back to 0 and restarts the interval.',
    category: { primary: 'core', secondary: 'timing', tags: ['ticker'] },
    pads: [
      pad.propertySource('tick', [t.integer({ minimum: 0 })], 0),
      pad.propertySink('interval_ms', [t.integer({ minimum: 0 })], 1000),
      pad.propertySink('active', [t.boolean()], true),
      pad.sink('reset', [t.trigger()]),
    ],
  },
];
