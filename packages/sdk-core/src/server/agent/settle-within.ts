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
