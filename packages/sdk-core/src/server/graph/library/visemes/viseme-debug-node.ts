import type { NodeImplementation } from '../../runtime/graph-node.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';

/** VisemeDebug: each viseme on the run log, as the engine logs it (`Viseme Frame: AA`). */
export const visemeDebugNode: NodeImplementation = async (node, signal) => {
  const unsubscribe = node.sink('viseme').onValue((viseme) => node.log('info', `Viseme Frame: ${String(viseme)}`, 'viseme'));
  await holdUntilAborted(signal, [unsubscribe]);
};
