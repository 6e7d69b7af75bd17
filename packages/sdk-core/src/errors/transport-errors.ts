import { PalaverError } from './palaver-error.js';

/** Why a connection failed. */
export type ConnectionErrorReason = 'network' | 'server_unreachable' | 'unauthorized' | 'agent_unavailable' | 'media_failed' | 'protocol' | 'closed';

/**
 * The platform could not be reached, or a realtime/socket connection failed.
 *
 * @example
 * if (ConnectionError.isInstance(error) && error.reason === 'network') retryLater()
 */
export class ConnectionError extends PalaverError {
  static override readonly marker: symbol = Symbol.for('palaver.error.ConnectionError');
  constructor(
    readonly reason: ConnectionErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An operation did not finish in time. */
export class TimeoutError extends PalaverError {
  static override readonly marker: symbol = Symbol.for('palaver.error.TimeoutError');
}

/** The caller aborted the operation (an `AbortSignal` fired). */
export class AbortError extends PalaverError {
  static override readonly marker: symbol = Symbol.for('palaver.error.AbortError');
}
