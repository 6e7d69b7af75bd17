const MARKER_PREFIX = 'palaver.error.';

interface MarkedClass {
  readonly marker: symbol;
}

/**
 * Root of every error thrown by Palaver, on the client and on the server.
 * Each class has a `Symbol.for` marker, so `isInstance` works across package copies and realms.
 *
 * @example
 * try { await client.personas.retrieve('x') } catch (error) {
 *   if (PalaverError.isInstance(error)) console.log(error.message)
 * }
 */
export class PalaverError extends Error {
  static readonly marker: symbol = Symbol.for('palaver.error.PalaverError');

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // The name comes from the marker, not the class's own name, which bundlers may rename (`ConnectionError2`).
    const marker = Object.hasOwn(new.target, 'marker') ? ((new.target as unknown as MarkedClass).marker.description ?? '') : '';
    this.name = marker.startsWith(MARKER_PREFIX) ? marker.slice(MARKER_PREFIX.length) : new.target.name;
    // Mark the instance with the marker of every class in its chain.
    for (let klass: unknown = new.target; klass && typeof (klass as MarkedClass).marker === 'symbol'; klass = Object.getPrototypeOf(klass)) {
      Object.defineProperty(this, (klass as MarkedClass).marker, { value: true, enumerable: false });
    }
  }

  /** True when `value` is an instance of this class (or a subclass), even from another copy of the package. */
  static isInstance<T>(this: MarkedClass & (abstract new (...args: never[]) => T), value: unknown): value is T {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[this.marker] === true;
  }
}
