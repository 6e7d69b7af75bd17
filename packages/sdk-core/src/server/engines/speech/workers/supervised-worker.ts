import { EventEmitter } from 'eventemitter3';
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from './spawn-worker.js';
import { FAULT_JOB, type FaultMode, type WorkerBootData, type WorkerReply } from './worker-protocol.js';

/** A worker died or hung while running a job; only that job fails, the next one gets a fresh worker. */
export class WorkerFailureError extends Error {
  override name = 'WorkerFailureError';
}

/** The engine inside the worker could not start (e.g. a missing native library or model). */
export class EngineUnavailableError extends Error {
  override name = 'EngineUnavailableError';
}

export interface SupervisedWorkerOptions {
  /** Used in errors and events, e.g. `flite`. */
  name: string;
  /** Worker module (see `siblingModule`). */
  entry: URL;
  /** Passed to the worker's `serveJobs` initialiser. */
  options?: unknown;
  /** A job running longer than this is considered hung: the worker is killed and restarted. */
  jobTimeoutMs?: number;
  /** How long a cancelled job may keep the worker busy before it is killed. */
  cancelGraceMs?: number;
  /**
   * How long closing waits for a worker that is still starting (loading its engine) before terminating it anyway.
   * Default 15 s.
   */
  bootSettleMs?: number;
}

/**
 * Terminating a worker thread while it loads a native addon (koffi's module, then the engine's library through it)
 * aborts the whole process: the addon's init fails to throw into the dying environment, and node-addon-api turns
 * that into a fatal error (`Error::ThrowAsJavaScriptException napi_throw`). A worker is therefore never terminated
 * before its boot settled (ready, failed or exited), but for one whose boot hangs past this.
 */
const DEFAULT_BOOT_SETTLE_MS = 15_000;

export interface RunOptions {
  signal?: AbortSignal;
  onChunk?: (data: unknown) => void;
  /** Overrides the worker's default job timeout for this job. */
  timeoutMs?: number;
  transfer?: ArrayBuffer[];
}

/** A job in flight: its result, and a channel for more input while it runs. */
export interface JobHandle<T> {
  result: Promise<T>;
  send(data: unknown, transfer?: ArrayBuffer[]): void;
}

/** Lifecycle events, for logs and metrics. */
export interface SupervisedWorkerEvents {
  started: (event: { name: string; startupMs: number }) => void;
  restarted: (event: { name: string; reason: string }) => void;
  unavailable: (event: { name: string; reason: string }) => void;
}

/** Told each time a worker died or hung and was replaced (the server counts them in its metrics). */
export type WorkerRestartListener = SupervisedWorkerEvents['restarted'];

interface Job {
  id: number;
  kind: string;
  payload: unknown;
  options: RunOptions;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  settled: boolean;
  pendingInput: Array<{ data: unknown; transfer?: ArrayBuffer[] }>;
  started: boolean;
}

let nextJobId = 1;

/**
 * One engine worker thread under supervision: jobs run one at a time in order; a crash or a hang
 * fails only the job that was running and the worker is started again for the next one; an
 * initialisation failure marks the engine unavailable with its reason. Cancelling a job (AbortSignal)
 * rejects it at once and raises a flag the engine polls; a worker that ignores it is killed.
 *
 * @example
 * const worker = new SupervisedWorker({ name: 'flite', entry: siblingModule(import.meta.url, 'flite-worker') });
 * const wav = await worker.run('synthesize', { text: 'Hello', voice: 'slt' }).result;
 */
export class SupervisedWorker extends EventEmitter<SupervisedWorkerEvents> {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  /** Resolves once the current worker's boot settled (ready, init error, crash or exit); see DEFAULT_BOOT_SETTLE_MS. */
  private booted: Promise<void> | undefined;
  /** Fails the current worker's boot (a no-op once it settled): the worker is being stopped. */
  private abortBoot: ((error: Error) => void) | undefined;
  private unavailableReason: string | undefined;
  private readonly queue: Job[] = [];
  private active: Job | undefined;
  private activeTimer: NodeJS.Timeout | undefined;
  private readonly cancelFlag = new Int32Array(new SharedArrayBuffer(4));
  private closed = false;
  /** Counters for observability. */
  readonly stats = { jobs: 0, failures: 0, restarts: 0 };

  constructor(private readonly settings: SupervisedWorkerOptions) {
    super();
  }

  /** Starts the worker now (otherwise it starts with the first job) and waits until it is ready. */
  async warmUp(): Promise<void> {
    await this.ensureStarted();
  }

  /** `undefined` while usable, or why the engine cannot start. */
  get unavailable(): string | undefined {
    return this.unavailableReason;
  }

  run<T = unknown>(kind: string, payload: unknown, options: RunOptions = {}): JobHandle<T> {
    let job!: Job;
    const result = new Promise<T>((resolve, reject) => {
      job = {
        id: nextJobId++,
        kind,
        payload,
        options,
        resolve: resolve as (value: unknown) => void,
        reject,
        settled: false,
        pendingInput: [],
        started: false,
      };
    });
    if (this.closed) this.fail(job, new Error(`${this.settings.name} worker is closed`));
    else if (options.signal?.aborted) this.fail(job, abortError(options.signal));
    else {
      const signal = options.signal;
      if (signal) {
        // Removed once the job settles: a long-lived signal (a socket session, a voice agent) runs many jobs.
        const onAbort = () => this.cancel(job);
        signal.addEventListener('abort', onAbort, { once: true });
        const forget = () => signal.removeEventListener('abort', onAbort);
        result.then(forget, forget);
      }
      this.queue.push(job);
      void this.pump();
    }
    return {
      result,
      send: (data, transfer) => {
        if (job.settled) return;
        if (!job.started || !this.worker) job.pendingInput.push({ data, transfer });
        else this.worker.postMessage({ type: 'input', jobId: job.id, data }, transfer ?? []);
      },
    };
  }

  /** Test hook: makes the worker exit, throw asynchronously or hang, to exercise recovery. */
  injectFault(mode: FaultMode, timeoutMs?: number): Promise<unknown> {
    return this.run(FAULT_JOB, mode, timeoutMs ? { timeoutMs } : {}).result;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.fail(job, new Error(`${this.settings.name} worker is closed`));
    if (this.active) this.fail(this.active, new Error(`${this.settings.name} worker is closed`));
    await this.stop();
  }

  private ensureStarted(): Promise<void> {
    if (this.unavailableReason) return Promise.reject(new EngineUnavailableError(this.unavailableReason));
    if (this.ready) return this.ready;
    const startedAt = performance.now();
    const worker = spawnWorker(this.settings.entry, {
      workerData: { cancelFlag: this.cancelFlag, options: this.settings.options } satisfies WorkerBootData,
    });
    this.worker = worker;
    let bootSettled!: () => void;
    this.booted = new Promise<void>((resolve) => {
      bootSettled = resolve;
    });
    worker.once('exit', () => bootSettled());
    this.ready = new Promise<void>((resolve, reject) => {
      this.abortBoot = reject;
      const onBootMessage = (message: WorkerReply) => {
        if (message.type === 'ready') {
          bootSettled();
          worker.off('message', onBootMessage);
          this.emit('started', { name: this.settings.name, startupMs: performance.now() - startedAt });
          resolve();
        } else if (message.type === 'init-error') {
          bootSettled();
          worker.off('message', onBootMessage);
          this.markUnavailable(message.message);
          reject(new EngineUnavailableError(message.message));
        }
      };
      worker.on('message', onBootMessage);
      worker.on('message', (message: WorkerReply) => this.onReply(worker, message));
      worker.once('error', (error) => this.onWorkerDeath(worker, `crashed: ${error.message}`, reject));
      worker.once('exit', (code) => this.onWorkerDeath(worker, `exited with code ${code}`, reject));
    });
    // Handled by callers; avoids an unhandled rejection when nobody awaits a failed warm-up.
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private markUnavailable(reason: string): void {
    this.unavailableReason = reason;
    this.emit('unavailable', { name: this.settings.name, reason });
    void this.stop();
    for (const job of this.queue.splice(0)) this.fail(job, new EngineUnavailableError(reason));
  }

  private onWorkerDeath(worker: Worker, reason: string, rejectBoot: (error: Error) => void): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.ready = undefined;
    rejectBoot(new WorkerFailureError(`${this.settings.name} worker ${reason}`));
    if (this.closed) return;
    this.stats.restarts++;
    this.emit('restarted', { name: this.settings.name, reason });
    if (this.active) this.finishActive(new WorkerFailureError(`${this.settings.name} worker ${reason}`));
  }

  private async pump(): Promise<void> {
    if (this.active || this.queue.length === 0 || this.closed) return;
    const job = this.queue.shift()!;
    if (job.settled) return this.pump();
    this.active = job;
    try {
      await this.ensureStarted();
    } catch (error) {
      // A boot crash counts against this job only; the next job tries a fresh worker.
      this.finishActive(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (this.active !== job || !this.worker) return;
    if (job.settled) {
      this.finishActive();
      return;
    }
    this.stats.jobs++;
    job.started = true;
    Atomics.store(this.cancelFlag, 0, 0);
    const timeoutMs = job.options.timeoutMs ?? this.settings.jobTimeoutMs ?? 30_000;
    this.activeTimer = setTimeout(() => this.killActive(`timed out after ${timeoutMs} ms`), timeoutMs);
    this.worker.postMessage({ type: 'job', jobId: job.id, kind: job.kind, payload: job.payload }, job.options.transfer ?? []);
    for (const input of job.pendingInput.splice(0)) {
      this.worker.postMessage({ type: 'input', jobId: job.id, data: input.data }, input.transfer ?? []);
    }
  }

  private onReply(worker: Worker, message: WorkerReply): void {
    if (worker !== this.worker || !('jobId' in message)) return;
    const job = this.active;
    if (!job || job.id !== message.jobId) return;
    if (message.type === 'chunk') {
      if (!job.settled) job.options.onChunk?.(message.data);
    } else if (message.type === 'done') {
      if (!job.settled) {
        job.settled = true;
        job.resolve(message.data);
      }
      this.finishActive();
    } else if (message.type === 'error') {
      this.finishActive(new Error(message.message));
    }
  }

  private finishActive(error?: Error): void {
    const job = this.active;
    clearTimeout(this.activeTimer);
    this.activeTimer = undefined;
    this.active = undefined;
    if (job && error) this.fail(job, error);
    void this.pump();
  }

  private cancel(job: Job): void {
    if (job.settled) return;
    this.fail(job, abortError(job.options.signal));
    if (this.active === job && job.started) {
      Atomics.store(this.cancelFlag, 0, job.id);
      clearTimeout(this.activeTimer);
      const graceMs = this.settings.cancelGraceMs ?? 2_000;
      this.activeTimer = setTimeout(() => this.killActive(`ignored cancellation for ${graceMs} ms`), graceMs);
    }
  }

  private killActive(reason: string): void {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    this.ready = undefined;
    this.booted = undefined;
    this.stats.restarts++;
    this.emit('restarted', { name: this.settings.name, reason });
    void worker.terminate();
    this.finishActive(new WorkerFailureError(`${this.settings.name} worker ${reason}`));
  }

  private fail(job: Job, error: Error): void {
    if (job.settled) return;
    job.settled = true;
    if (!(error.name === 'AbortError')) this.stats.failures++;
    job.reject(error);
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    const booted = this.booted;
    this.worker = undefined;
    this.ready = undefined;
    this.booted = undefined;
    clearTimeout(this.activeTimer);
    const abortBoot = this.abortBoot;
    this.abortBoot = undefined;
    if (!worker) return;
    if (booted) await settledWithin(booted, this.settings.bootSettleMs ?? DEFAULT_BOOT_SETTLE_MS);
    await worker.terminate();
    // A boot that never settled (it hung) must not leave its waiters waiting: the worker's exit is ignored once stopped.
    abortBoot?.(new WorkerFailureError(`${this.settings.name} worker was stopped while starting`));
  }
}

/** Waits for `promise` to settle, at most `ms`. */
async function settledWithin(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** The error a cancelled operation rejects with (DOMException `AbortError`, like fetch). */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('The operation was aborted', 'AbortError');
}
