import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';

/** How long Entry waits after the start before firing: clients have joined the room by then. */
export const ENTRY_DELAY_MS = 500;

/** Entry: one trigger on `trigger`, `ENTRY_DELAY_MS` after the run starts (none when it stops before). */
export const entryNode: NodeImplementation = async (node, signal) => {
  const trigger = node.source('trigger');
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', cancel);
      trigger.push(TRIGGER);
      resolve();
    }, ENTRY_DELAY_MS);
    const cancel = (): void => {
      clearTimeout(timer);
      resolve();
    };
    signal.addEventListener('abort', cancel, { once: true });
  });
};
