/**
 * A small typed event emitter: `on` returns the unsubscribe function; a throwing listener is
 * isolated so one bad consumer cannot break delivery to others, and reported: the owner says where
 * (`onListenerError`, usually its logger; there is no silent default).
 *
 * @example
 * const events = new TypedEmitter<{ data: [Uint8Array] }>((error, event) => logger.error({ err: error, event }, 'event listener failed'));
 * const off = events.on('data', (payload) => console.log(payload.length));
 */
import type { Logger } from 'pino';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type AnyListener = Function;

export class TypedEmitter<Events extends { [K in keyof Events]: unknown[] }> {
  private readonly listeners = new Map<keyof Events, Set<AnyListener>>();

  constructor(private readonly onListenerError: (error: unknown, event: keyof Events) => void) {}

  on<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<E extends keyof Events>(event: E, ...args: Events[E]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as (...args: Events[E]) => void)(...args);
      } catch (error) {
        this.onListenerError(error, event);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}

/**
 * The usual `onListenerError`: the failure on the owner's logger, with the event's name.
 *
 * @example
 * const events = new TypedEmitter<AgentRoomEvents>(logListenerError(logger, 'agent room connection'));
 */
export function logListenerError(logger: Pick<Logger, 'error'>, owner: string): (error: unknown, event: PropertyKey) => void {
  return (error, event) => logger.error({ err: error, event: String(event) }, `${owner}: a listener of '${String(event)}' failed`);
}
