import { ApiError } from '../../src/index.js';

/** What a failed call rejected with, typed for assertions on `message` and `status`. */
export type Failure = Error & { status?: number; message: string };

/**
 * The error a call rejects with; fails the test when the call resolves instead, so an assertion on the
 * error can never pass by accident.
 *
 * @example
 * const error = await failureOf(client.personas.retrieve('persona_missing'));
 * expect(NotFoundError.isInstance(error)).toBe(true);
 */
export async function failureOf(promise: PromiseLike<unknown>): Promise<Failure> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    return error as Failure;
  }
  throw new Error(`expected the call to fail, it resolved with ${printable(value)}`);
}

/**
 * The {@link ApiError} a call rejects with. Fails the test when the call resolves, and rethrows any other
 * error: a transport failure or a bug in the client must not pass for the API error a test expects.
 *
 * @example
 * const error = await apiFailureOf(client.appRuns.debug({ run_id: 'run-1' }));
 * expect(error.status).toBe(501);
 */
export async function apiFailureOf(promise: PromiseLike<unknown>): Promise<ApiError> {
  const error: unknown = await failureOf(promise);
  if (!ApiError.isInstance(error)) throw error;
  return error;
}

function printable(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
