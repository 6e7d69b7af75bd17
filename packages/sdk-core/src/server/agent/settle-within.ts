import type { Logger } from 'pino';

/**
 * Waits for `step` at most `timeoutMs`: `done`, `timeout`, or `failed` (the step rejected). Never throws,
 * so a stuck or failing transport cannot hang or break a shutdown.
 *
 * @example
 * if ((await settleWithin(connection.leave(), 5000)) !== 'done') logger.warn('leaving the room did not finish');
 */
export async function settleWithin(step: Promise<unknown>, timeoutMs: number): Promise<'done' | 'timeout' | 'failed'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([
      step.then(
        () => 'done' as const,
        () => 'failed' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Longest wait for one step of leaving a room (unpublish, leave). */
export const LEAVE_STEP_TIMEOUT_MS = 5000;

/**
 * One step of leaving, within bounds (`LEAVE_STEP_TIMEOUT_MS`): a stuck transport must not hang a stop; a step that
 * did not finish is logged.
 *
 * @example
 * await leaveStep(connection.leave(), 'leaving the room', logger);
 */
export async function leaveStep(step: Promise<void> | undefined, what: string, logger: Pick<Logger, 'warn'>): Promise<void> {
  if (!step) return;
  const outcome = await settleWithin(step, LEAVE_STEP_TIMEOUT_MS);
  if (outcome !== 'done') logger.warn({ step: what, outcome }, 'a step of stopping the agent did not finish');
}
