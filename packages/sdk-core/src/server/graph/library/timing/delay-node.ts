import type { NodeImplementation } from '../../runtime/graph-node.js';
import { describeValue, holdUntilAborted } from '../utility/node-lifetime.js';

/** The delay when `delay_ms` holds no usable value (the catalogue's default). */
const FALLBACK_DELAY_MS = 1000;

/**
 * Delay: each value on `sink` leaves on `source` `delay_ms` after it arrived (the delay in force when it
 * arrived), in arrival order. What is still waiting when the run stops is dropped.
 */
export const delayNode: NodeImplementation = async (node, signal) => {
  const source = node.source('source');
  const delayPad = node.propertySink('delay_ms');
  const waiting: { due: number; value: unknown }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let loggedDelay: unknown;

  const delayMs = (): number => {
    const value = delayPad.value;
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
    if (!Object.is(value, loggedDelay))
      node.log('warning', `delay_ms ${describeValue(value)} is not a number of milliseconds: using ${FALLBACK_DELAY_MS}`, 'delay_ms');
    loggedDelay = value;
    return FALLBACK_DELAY_MS;
  };

  const release = (): void => {
    timer = undefined;
    const now = Date.now();
    while (waiting.length > 0 && waiting[0]!.due <= now && !signal.aborted) source.push(waiting.shift()!.value);
    schedule();
  };

  const schedule = (): void => {
    if (timer !== undefined || waiting.length === 0 || signal.aborted) return;
    timer = setTimeout(release, Math.max(0, waiting[0]!.due - Date.now()));
  };

  await holdUntilAborted(signal, [
    node.sink('sink').onValue((value) => {
      waiting.push({ due: Date.now() + delayMs(), value });
      schedule();
    }),
    () => {
      clearTimeout(timer);
      timer = undefined;
      waiting.length = 0;
    },
  ]);
};
