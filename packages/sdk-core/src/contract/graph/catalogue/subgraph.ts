import { pad, t, type NodeSpec } from '../node-spec.js';

const padId = pad.propertySink('pad_id', [t.string()], '', { description: 'The id of the pad this proxy becomes on the SubGraph node.' });

/** Sub graphs and the proxy nodes that make their pads. */
export const subgraphNodes: NodeSpec[] = [
  {
    type: 'SubGraph',
    description: "Runs a sub graph (`__subgraph_id__`) as one node: each proxy node inside becomes one of its pads, named by the proxy's `pad_id`.",
    category: { primary: 'subgraph', secondary: 'composite', tags: ['reusable', 'nested'] },
    pads: [pad.propertySink('__subgraph_id__', [t.string()], '', { group: 'subgraph' })],
    dynamicPads: true,
  },
  {
    type: 'ProxyStatelessSink',
    description: 'Inside a sub graph: an event or stream input of the SubGraph node, emitted here on `proxy`.',
    category: { primary: 'subgraph', secondary: 'proxy', tags: ['input'] },
    pads: [pad.source('proxy', null), padId],
  },
  {
    type: 'ProxyPropertySink',
    description: 'Inside a sub graph: a property input of the SubGraph node, held here on `proxy`.',
    category: { primary: 'subgraph', secondary: 'proxy', tags: ['input'] },
    pads: [pad.propertySource('proxy', null), padId],
  },
  {
    type: 'ProxyStatelessSource',
    description: 'Inside a sub graph: what reaches `proxy` leaves the SubGraph node as an event or stream.',
    category: { primary: 'subgraph', secondary: 'proxy', tags: ['output'] },
    pads: [pad.sink('proxy', null), padId],
  },
  {
    type: 'ProxyPropertySource',
    description: 'Inside a sub graph: the value of `proxy` is a property output of the SubGraph node.',
    category: { primary: 'subgraph', secondary: 'proxy', tags: ['output'] },
    pads: [pad.propertySink('proxy', null), padId],
  },
];
