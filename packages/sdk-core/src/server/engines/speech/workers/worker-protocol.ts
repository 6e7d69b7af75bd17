/**
 * Messages between a {@link SupervisedWorker} and the job runtime inside its worker thread.
 * One job runs at a time per worker: the embedded engines are synchronous (Flite, eSpeak) or keep
 * per-utterance state (pocketsphinx), so concurrency comes from several workers, not from one.
 */

/** Main thread -> worker. */
export type WorkerRequest =
  | { type: 'job'; jobId: number; kind: string; payload: unknown }
  /** Extra input for a running job (e.g. audio frames for an STT utterance). */
  | { type: 'input'; jobId: number; data: unknown };

/** Worker -> main thread. */
export type WorkerReply =
  | { type: 'ready'; info?: unknown }
  | { type: 'init-error'; message: string }
  | { type: 'chunk'; jobId: number; data: unknown }
  | { type: 'done'; jobId: number; data: unknown }
  | { type: 'error'; jobId: number; message: string };

/**
 * Data handed to every speech worker: `cancelFlag[0]` holds the id of a job the main thread cancelled,
 * readable with `Atomics.load` from inside a synchronous engine callback (messages cannot be received
 * while the worker's thread is busy synthesising).
 */
export interface WorkerBootData {
  cancelFlag: Int32Array;
  options: unknown;
}

/** Job kinds every worker runtime understands, so supervision can be tested against real workers. */
export const FAULT_JOB = '__fault';
export type FaultMode = 'exit' | 'throw' | 'hang';
