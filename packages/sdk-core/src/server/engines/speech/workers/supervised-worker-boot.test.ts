import { describe, expect, it, vi } from 'vitest';
import { SupervisedWorker, WorkerFailureError } from './supervised-worker.js';

const neverReady = new URL('../../../../../tests/fixtures/workers/never-ready-worker.mjs', import.meta.url);

describe('a supervised worker stopped while it starts', () => {
  it('waits for the boot bootSettleMs of its clock, then terminates it and fails its waiters instead of leaving them hanging', async () => {
    const worker = new SupervisedWorker({ name: 'never-ready', entry: neverReady, bootSettleMs: 300 });
    const warming = worker.warmUp().then(
      () => 'ready',
      (error: unknown) => error,
    );
    const job = worker.run('anything', {}).result.catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // From here the bound is counted on a fake clock; the worker thread itself runs for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let closed = false;
    try {
      const closing = worker.close().then(() => (closed = true));
      // The boot did not settle: close waits its bound, not less (a native addon may be loading)...
      await vi.advanceTimersByTimeAsync(299);
      expect(closed).toBe(false);
      // ...then terminates the worker.
      await vi.advanceTimersByTimeAsync(1);
      vi.useRealTimers();
      await closing;
    } finally {
      vi.useRealTimers();
    }
    expect(closed).toBe(true);
    const failure = await warming;
    expect(failure).toBeInstanceOf(WorkerFailureError);
    expect((failure as Error).message).toBe('never-ready worker was stopped while starting');
    expect(await job).toMatchObject({ message: 'never-ready worker is closed' });
  });
});
