import { parentPort, workerData } from 'node:worker_threads';
import { FAULT_JOB, type FaultMode, type WorkerBootData, type WorkerReply, type WorkerRequest } from './worker-protocol.js';

/** What a job handler can do besides returning its result. */
export interface JobContext {
  /** Streams a partial result to the caller; `transfer` moves buffers instead of copying them. */
  emit(data: unknown, transfer?: ArrayBuffer[]): void;
  /** True once the main thread cancelled this job; poll it from synchronous engine callbacks. */
  isCancelled(): boolean;
  /** Registers the receiver of `input` messages for this job. */
  onInput(listener: (data: unknown) => void): void;
}

/** Returns the job's result, or a promise of it. */
export type JobHandler = (payload: unknown, context: JobContext) => unknown;

/**
 * Runs inside a speech worker: initialises the engine once, then serves jobs one at a time.
 * `initialise` gets the options passed to the supervisor and returns the job handlers; if it throws,
 * the supervisor learns why (e.g. a missing native library) and reports the engine unavailable.
 *
 * @example
 * serveJobs(async (options) => {
 *   const engine = await loadEngine(options);
 *   return { synthesize: (payload, context) => engine.run(payload, context) };
 * });
 */
export function serveJobs(initialise: (options: unknown) => Promise<Record<string, JobHandler>> | Record<string, JobHandler>): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs must run in a worker thread');
  const boot = workerData as WorkerBootData;
  const send = (message: WorkerReply, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer ?? []);
  const inputListeners = new Map<number, (data: unknown) => void>();
  let handlers: Record<string, JobHandler> | undefined;

  const runJob = async (request: Extract<WorkerRequest, { type: 'job' }>) => {
    const { jobId } = request;
    const context: JobContext = {
      emit: (data, transfer) => send({ type: 'chunk', jobId, data }, transfer),
      isCancelled: () => Atomics.load(boot.cancelFlag, 0) === jobId,
      onInput: (listener) => inputListeners.set(jobId, listener),
    };
    try {
      if (request.kind === FAULT_JOB) return injectFault(request.payload as FaultMode);
      const handler = handlers?.[request.kind];
      if (!handler) throw new Error(`unknown job kind: ${request.kind}`);
      const data = await handler(request.payload, context);
      send({ type: 'done', jobId, data });
    } catch (error) {
      send({ type: 'error', jobId, message: error instanceof Error ? error.message : String(error) });
    } finally {
      inputListeners.delete(jobId);
    }
  };

  port.on('message', (request: WorkerRequest) => {
    if (request.type === 'job') void runJob(request);
    else if (request.type === 'input') inputListeners.get(request.jobId)?.(request.data);
  });

  Promise.resolve()
    .then(() => initialise(boot.options))
    .then((ready) => {
      handlers = ready;
      send({ type: 'ready' });
    })
    .catch((error: unknown) => send({ type: 'init-error', message: error instanceof Error ? error.message : String(error) }));
}

/** Simulated failures, so crash and hang recovery are tested against a real worker thread. */
function injectFault(mode: FaultMode): void {
  if (mode === 'exit') process.exit(70);
  if (mode === 'throw') {
    setImmediate(() => {
      throw new Error('injected worker fault');
    });
    return;
  }
  const until = Date.now() + 600_000;
  while (Date.now() < until) {
    // Busy loop: only terminate() ends it, which is the point.
  }
}
