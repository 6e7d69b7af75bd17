import type { NodeImplementation } from '../../runtime/graph-node.js';
import { delayNode } from './delay-node.js';
import { tickerNode } from './ticker-node.js';

export const timingImplementations: Record<string, NodeImplementation> = {
  Delay: delayNode,
  Ticker: tickerNode,
};
