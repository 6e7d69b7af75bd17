import { PalaverError } from '../errors/palaver-error.js';

/**
 * The service ended a TTS stream with an `error` message (unknown voice, malformed message, a failed
 * synthesis...). `message` is the service's `payload.message`.
 *
 * @example
 * stream.on('error', (error) => { if (TtsStreamError.isInstance(error)) console.warn(error.session, error.message); });
 */
export class TtsStreamError extends PalaverError {
  static override readonly marker: symbol = Symbol.for('palaver.error.TtsStreamError');
  constructor(
    readonly session: string,
    message: string,
  ) {
    super(message);
  }
}
