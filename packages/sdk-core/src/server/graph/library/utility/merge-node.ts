import type { NodeImplementation } from '../../runtime/graph-node.js';
import { StatelessSinkPad } from '../../runtime/pads.js';
import { holdUntilAborted } from './node-lifetime.js';

/** Merge: everything that reaches any `sink_{i}` leaves on `source`, in arrival order. */
export const mergeNode: NodeImplementation = async (node, signal) => {
  const source = node.source('source');
  await holdUntilAborted(
    signal,
    node.numbered('sink_', StatelessSinkPad).map((sink) => sink.onValue((value) => source.push(value))),
  );
};
