import { describe, expect, it } from 'vitest';
import { SupervisedWorker, WorkerFailureError } from './supervised-worker.js';

const neverReady = new URL('../../../../../tests/fixtures/workers/never-ready-worker.mjs', import.meta.url);

describe('a supervised worker stopped while it starts', () => {
  it('waits for the boot at most bootSettleMs, then terminates it and fails its waiters instead of leaving them hanging', async () => {
    const worker = new SupervisedWorker({ name: 'never-ready', entry: neverReady, bootSettleMs: 300 });
    const warming = worker.warmUp().then(
      () => 'ready',
      (error: unknown) => error,
    );
    const job = worker.run('anything', {}).result.catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = performance.now();
    await worker.close();
    const closeMs = performance.now() - closing;
    // The boot did not settle: close waited its bound (not less: a native addon may be loading), then terminated.
    expect(closeMs).toBeGreaterThanOrEqual(290);
    expect(closeMs).toBeLessThan(3000);
    const failure = await warming;
    expect(failure).toBeInstanceOf(WorkerFailureError);
    expect((failure as Error).message).toBe('never-ready worker was stopped while starting');
    expect(await job).toMatchObject({ message: 'never-ready worker is closed' });
  });
});
