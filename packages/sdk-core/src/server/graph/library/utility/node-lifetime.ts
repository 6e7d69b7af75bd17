/**
 * Keeps a node that only reacts to its pads' listeners alive until the run stops, then removes its listeners
 * and runs its cleanups (timers), so nothing of the node outlives the run.
 *
 * @example
 * await holdUntilAborted(signal, [node.propertySink('open').onValue(update), () => clearInterval(timer)]);
 */
export async function holdUntilAborted(signal: AbortSignal, cleanups: Iterable<() => unknown> = []): Promise<void> {
  if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  for (const cleanup of cleanups) cleanup();
}

/** A short, printable form of a value for a log line. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 60 ? `${text.slice(0, 60)}…` : text;
  } catch {
    return typeof value;
  }
}
