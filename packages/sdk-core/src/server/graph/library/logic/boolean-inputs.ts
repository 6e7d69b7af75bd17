import type { RuntimeNode } from '../../runtime/graph-node.js';
import { PropertySinkPad } from '../../runtime/pads.js';
import { describeValue, holdUntilAborted } from '../utility/node-lifetime.js';

/**
 * And and Or: `source` is `combine` of the inputs `input_1` .. `input_n`, recomputed whenever one changes
 * and pushed when it changes. An input holding anything but a boolean counts as false (logged).
 */
export async function combineBooleanInputs(node: RuntimeNode, signal: AbortSignal, combine: (values: boolean[]) => boolean): Promise<void> {
  const inputs = node.numbered('input_', PropertySinkPad);
  const source = node.propertySource('source');
  const update = (): void => {
    const result = combine(inputs.map((input) => input.value === true));
    if (result !== source.value) source.push(result);
  };
  const listeners = inputs.map((input) =>
    input.onValue((value) => {
      if (typeof value !== 'boolean' && value !== null) node.log('warning', `${describeValue(value)} is not true or false: taken as false`, input.id);
      update();
    }),
  );
  update();
  await holdUntilAborted(signal, listeners);
}
