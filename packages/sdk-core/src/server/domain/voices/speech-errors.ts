import { ApiError, InternalServerError } from '../../../errors/api-error.js';
import { EngineUnavailableError, TtsServiceUnavailableError } from '../../engines/speech/index.js';

/** 503: the voice's engine is not running on this server (unconfigured vendor, missing native library). */
export class SpeechUnavailableError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.SpeechUnavailableError');
  constructor(message: string, options: { cause?: unknown } = {}) {
    super({ status: 503, type: 'service_unavailable', message, cause: options.cause });
  }
}

/**
 * Turns an engine failure into the API error to answer with: API errors and aborts pass through; a
 * missing engine is 503; anything else (a crashed or hung worker) is a 500 whose message says what failed.
 *
 * @example
 * try { ... } catch (error) { throw speechFailure(error); }
 */
export function speechFailure(error: unknown): Error {
  if (ApiError.isInstance(error)) return error;
  if (error instanceof Error && error.name === 'AbortError') return error;
  if (error instanceof TtsServiceUnavailableError || error instanceof EngineUnavailableError) {
    return new SpeechUnavailableError(`speech synthesis is unavailable: ${error.message}`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new InternalServerError(`speech synthesis failed: ${message}`, { cause: error });
}
