import type { NodeImplementation } from '../../runtime/graph-node.js';
import { describeValue, holdUntilAborted } from '../utility/node-lifetime.js';

/** The shortest interval a Ticker keeps (a smaller `interval_ms` ticks this often). */
export const MIN_TICK_INTERVAL_MS = 10;

/**
 * Ticker: adds one to `tick` every `interval_ms` while `active` is true. Changing `interval_ms` or
 * activating restarts the interval; `reset` sets `tick` to 0 and restarts it. The interval is cleared when
 * the run stops.
 */
export const tickerNode: NodeImplementation = async (node, signal) => {
  const tick = node.propertySource('tick');
  const interval = node.propertySink('interval_ms');
  const active = node.propertySink('active');
  let timer: NodeJS.Timeout | undefined;
  let loggedInterval: unknown;

  const stop = (): void => {
    clearInterval(timer);
    timer = undefined;
  };

  const start = (): void => {
    stop();
    if (signal.aborted || active.value !== true) return;
    const ms = interval.value;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) {
      if (!Object.is(ms, loggedInterval)) node.log('warning', `interval_ms ${describeValue(ms)} is not a positive number: not ticking`, 'interval_ms');
      loggedInterval = ms;
      return;
    }
    loggedInterval = undefined;
    timer = setInterval(
      () => {
        const current = typeof tick.value === 'number' && Number.isInteger(tick.value) && tick.value >= 0 ? tick.value : 0;
        tick.push(current + 1);
      },
      Math.max(MIN_TICK_INTERVAL_MS, ms),
    );
  };

  let wasActive = active.value === true;
  const listeners = [
    interval.onValue(start),
    active.onValue(() => {
      const isActive = active.value === true;
      if (isActive !== wasActive) start();
      wasActive = isActive;
    }),
    node.sink('reset').onValue(() => {
      tick.push(0);
      if (timer !== undefined) start();
    }),
    stop,
  ];
  start();
  await holdUntilAborted(signal, listeners);
};
