/**
 * A small typed event emitter: `on` returns the unsubscribe function; a throwing listener is
 * isolated (reported to `onListenerError`) so one bad consumer cannot break delivery to others.
 *
 * @example
 * const events = new TypedEmitter<{ data: [Uint8Array] }>();
 * const off = events.on('data', (payload) => console.log(payload.length));
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type AnyListener = Function;

export class TypedEmitter<Events extends { [K in keyof Events]: unknown[] }> {
  private readonly listeners = new Map<keyof Events, Set<AnyListener>>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

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
        this.onListenerError(error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
