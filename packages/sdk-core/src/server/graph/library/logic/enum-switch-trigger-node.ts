import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { StatelessSourcePad } from '../../runtime/pads.js';
import { describeValue, holdUntilAborted } from '../utility/node-lifetime.js';

/** EnumSwitchTrigger: each value reaching `sink` fires the trigger pad named after it; other values are logged and dropped. */
export const enumSwitchTriggerNode: NodeImplementation = async (node, signal) => {
  await holdUntilAborted(signal, [
    node.sink('sink').onValue((value) => {
      const target = typeof value === 'string' && value !== 'sink' ? node.pad(value) : undefined;
      if (target instanceof StatelessSourcePad) target.push(TRIGGER);
      else node.log('warning', `no option ${describeValue(value)}: nothing fired`, 'sink');
    }),
  ]);
};
