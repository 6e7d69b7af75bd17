import type { NodeImplementation } from '../../runtime/graph-node.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';

/** Gate: what reaches `sink` leaves on `source` while `open` is true; dropped otherwise. */
export const gateNode: NodeImplementation = async (node, signal) => {
  const open = node.propertySink('open');
  const source = node.source('source');
  await holdUntilAborted(signal, [
    node.sink('sink').onValue((value) => {
      if (open.value === true) source.push(value);
    }),
  ]);
};
