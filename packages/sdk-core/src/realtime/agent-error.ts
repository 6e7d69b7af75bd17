import { PalaverError } from '../errors/palaver-error.js';

/**
 * An error the agent reported on the `error` topic (e.g. its LLM failed); the session stays connected.
 *
 * @example
 * session.on('error', (error) => { if (AgentError.isInstance(error)) toast(error.message) });
 */
export class AgentError extends PalaverError {
  static override readonly marker: symbol = Symbol.for('palaver.error.AgentError');
}
