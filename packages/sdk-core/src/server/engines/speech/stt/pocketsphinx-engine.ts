import { LinearResampler } from '../codecs/resample.js';
import type { EngineStatus } from '../engine-status.js';
import {
  POCKETSPHINX_SAMPLE_RATE,
  type FinalHypothesis,
  type InterimHypothesis,
  type PocketsphinxOptions,
  type UtteranceInput,
  type UtteranceJob,
} from '../workers/pocketsphinx-protocol.js';
import { siblingModule } from '../workers/spawn-worker.js';
import { EngineUnavailableError, SupervisedWorker, type JobHandle, type WorkerRestartListener } from '../workers/supervised-worker.js';
import { PHONE_MLLR_MATRIX } from './phone-mllr.js';
import { POCKETSPHINX_SEARCH, type PocketsphinxSearch } from './pocketsphinx-search.js';
import { BaseSttSession, type SttEngine, type SttSession, type SttSessionOptions } from './stt-engine.js';

export interface PocketsphinxEngineOptions extends Partial<PocketsphinxOptions> {
  /** Decoders (worker threads, ~30 MB each) for concurrent utterances: as many as humans speaking at once. */
  poolSize?: number;
  /** Search settings (default `accurate`); `decoderArguments` are added over them. */
  search?: PocketsphinxSearch;
  /**
   * Utterances waiting for a decoder at most (default: four times the pool's size); past it the one that waited longest is
   * given up (its final is empty): an overloaded recogniser drops words rather than falling ever further behind.
   */
  maxWaiting?: number;
  interimIntervalMs?: number;
  /** Longest utterance before the worker is considered hung. */
  utteranceTimeoutMs?: number;
  /** Told when the supervisor replaces a crashed or hung decoder worker. */
  onWorkerRestart?: WorkerRestartListener | undefined;
  /**
   * Phone callers' sessions (`SttSessionOptions.narrowband`) decoded with the model adapted to G.711 speech
   * (`PHONE_MLLR_MATRIX`), on decoders of their own (the same pool size) started with the first of them. Off by
   * default (decision 0124): word error on held-out phone speech 51.8 -> 34.3 %, but more cut-ins into callers' pauses.
   */
  phoneAdaptation?: boolean;
}

export const DEFAULT_POCKETSPHINX_OPTIONS: PocketsphinxOptions = {
  libraryPath: 'libpocketsphinx.so.3',
  sphinxbaseLibraryPath: 'libsphinxbase.so.3',
  modelDirectory: '/usr/share/pocketsphinx/model/en-us',
  niceness: 0,
};

/** Decoders by default. */
export const DEFAULT_POCKETSPHINX_POOL_SIZE = 2;

/** An utterance given up while it waited for a decoder (every decoder busy, too many waiting). */
export class SttOverloadedError extends Error {
  override name = 'SttOverloadedError';
}

/**
 * Embedded English STT: CMU pocketsphinx (Debian `libpocketsphinx3` + `pocketsphinx-en-us`) through
 * koffi, one decoder per worker thread, reused across utterances. An utterance holds a decoder from
 * its first frame to `finish()`; with every decoder busy, new utterances wait (their audio is kept).
 * Without the library or model, `status()` says so and sessions cannot be created.
 *
 * @example
 * const stt = new PocketsphinxEngine();
 * const status = await stt.status(); // { available: true } or { available: false, reason }
 */
export class PocketsphinxEngine implements SttEngine {
  readonly provider = 'pocketsphinx';
  private readonly workers: SupervisedWorker[] = [];
  private readonly idle: SupervisedWorker[] = [];
  private readonly waiting: Array<{ resolve: (worker: SupervisedWorker) => void; reject: (error: Error) => void }> = [];
  private readonly settings: PocketsphinxOptions;
  /** The decoders of narrowband sessions, with the phone transform. */
  private narrowband: PocketsphinxEngine | undefined;
  /** Utterances given up while they waited for a decoder. */
  readonly stats = { givenUp: 0 };

  constructor(private readonly options: PocketsphinxEngineOptions = {}) {
    this.settings = {
      libraryPath: options.libraryPath ?? DEFAULT_POCKETSPHINX_OPTIONS.libraryPath,
      sphinxbaseLibraryPath: options.sphinxbaseLibraryPath ?? DEFAULT_POCKETSPHINX_OPTIONS.sphinxbaseLibraryPath,
      modelDirectory: options.modelDirectory ?? DEFAULT_POCKETSPHINX_OPTIONS.modelDirectory,
      decoderArguments: { ...POCKETSPHINX_SEARCH[options.search ?? 'accurate'], ...options.decoderArguments },
      niceness: options.niceness ?? DEFAULT_POCKETSPHINX_OPTIONS.niceness,
      ...(options.mllrMatrix ? { mllrMatrix: options.mllrMatrix } : {}),
    };
  }

  /** The configuration its decoders start with. */
  get decoderSettings(): Readonly<PocketsphinxOptions> {
    return this.settings;
  }

  /** Starts the first decoder if needed (~0.3-0.8 s) and reports whether it loaded. */
  async status(): Promise<EngineStatus> {
    try {
      await this.warmUp();
      return { available: true };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return {
        available: false,
        reason: `no STT engine: ${detail} (or configure an OpenAI-compatible transcription endpoint)`,
      };
    }
  }

  /** Starts the first decoder (of narrowband sessions: `{ narrowband: true }`, e.g. when a phone caller joins). */
  async warmUp(options: { narrowband?: boolean } = {}): Promise<void> {
    if (options.narrowband) return this.narrowbandEngine().warmUp();
    if (this.workers.length === 0) this.idle.push(this.addWorker());
    await this.workers[0]!.warmUp();
  }

  createSession(options: SttSessionOptions): SttSession {
    if (options.narrowband) return this.narrowbandEngine().createSession({ ...options, narrowband: false });
    const reason = this.workers[0]?.unavailable;
    if (reason) throw new EngineUnavailableError(reason);
    return new PocketsphinxSession(this, options, this.options.interimIntervalMs ?? 150);
  }

  /** The engine narrowband sessions are decoded by: with `phoneAdaptation`, this one's settings and the phone transform; else this one. */
  narrowbandEngine(): PocketsphinxEngine {
    if (!this.options.phoneAdaptation || this.options.mllrMatrix) return this;
    return (this.narrowband ??= new PocketsphinxEngine({ ...this.options, mllrMatrix: PHONE_MLLR_MATRIX, phoneAdaptation: false }));
  }

  /**
   * @internal Lends a decoder to an utterance; `withdraw` takes back a wait of an utterance closed before it got
   * one (it no longer counts against `maxWaiting`, and no decoder is lent to it).
   */
  acquire(): { worker: Promise<SupervisedWorker>; withdraw: () => void } {
    const worker = this.idle.pop();
    if (worker) return { worker: Promise.resolve(worker), withdraw: ignore };
    const poolSize = this.options.poolSize ?? DEFAULT_POCKETSPHINX_POOL_SIZE;
    if (this.workers.length < poolSize) return { worker: Promise.resolve(this.addWorker()), withdraw: ignore };
    let entry!: (typeof this.waiting)[number];
    const waiting = new Promise<SupervisedWorker>((resolve, reject) => (entry = { resolve, reject }));
    this.waiting.push(entry);
    if (this.waiting.length > (this.options.maxWaiting ?? poolSize * 4)) {
      this.stats.givenUp += 1;
      this.waiting.shift()!.reject(new SttOverloadedError('every speech recogniser is busy: the utterance that waited longest was given up'));
    }
    const withdraw = () => {
      const index = this.waiting.indexOf(entry);
      if (index >= 0) this.waiting.splice(index, 1);
    };
    return { worker: waiting, withdraw };
  }

  /** @internal */
  release(worker: SupervisedWorker): void {
    const next = this.waiting.shift();
    if (next) next.resolve(worker);
    else this.idle.push(worker);
  }

  /** @internal */
  get utteranceTimeoutMs(): number {
    return this.options.utteranceTimeoutMs ?? 120_000;
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers.map((worker) => worker.close()), this.narrowband?.close()]);
  }

  private addWorker(): SupervisedWorker {
    const worker = new SupervisedWorker({
      name: 'pocketsphinx',
      entry: siblingModule(import.meta.url, '../workers/pocketsphinx-worker'),
      options: this.settings,
      jobTimeoutMs: this.utteranceTimeoutMs,
    });
    if (this.options.onWorkerRestart) worker.on('restarted', this.options.onWorkerRestart);
    this.workers.push(worker);
    return worker;
  }
}

class PocketsphinxSession extends BaseSttSession {
  private job: { handle: Promise<JobHandle<FinalHypothesis>>; withdraw: () => void } | undefined;
  /** Callers of `peek` waiting for the decoder's answer, in order. */
  private readonly peeks: Array<(text: string) => void> = [];
  private readonly resampler: LinearResampler;

  constructor(
    private readonly engine: PocketsphinxEngine,
    private readonly options: SttSessionOptions,
    private readonly interimIntervalMs: number,
  ) {
    super();
    this.resampler = new LinearResampler(options.sampleRate, POCKETSPHINX_SAMPLE_RATE);
    options.signal?.addEventListener('abort', () => this.close(), { once: true });
  }

  push(pcm: Int16Array): void {
    if (this.closed) return;
    const samples = this.resampler.push(pcm);
    const job = (this.job ??= this.startUtterance());
    // An utterance given up while it waited (SttOverloadedError) ends with an empty final, see finish().
    job.handle.then((handle) => handle.send({ type: 'audio', pcm: samples } satisfies UtteranceInput), ignore);
  }

  /** The decoder's hypothesis of the audio pushed so far, asked for now (ahead of the next interim). */
  async peek(): Promise<string> {
    const job = this.job;
    if (!job || this.closed) return '';
    // Awaited directly, as finish() does: the peek reaches the decoder before an `end` asked for right after it
    // (an extra tick here sent `end` first, and the peek read the finished utterance's nothing).
    let handle: JobHandle<FinalHypothesis>;
    try {
      handle = await job.handle;
    } catch {
      return '';
    }
    return new Promise<string>((resolve) => {
      this.peeks.push(resolve);
      handle.send({ type: 'peek' } satisfies UtteranceInput);
    });
  }

  async finish(): Promise<string> {
    const job = this.job;
    if (!job || this.closed) return '';
    this.job = undefined;
    const utterance = this.utterance++;
    const started = performance.now();
    try {
      const handle = await job.handle;
      handle.send({ type: 'end' } satisfies UtteranceInput);
      const final = await handle.result;
      this.emit('transcript', { type: 'final', text: final.text, words: final.words, utterance, latencyMs: performance.now() - started });
      return final.text;
    } catch (error) {
      if (error instanceof SttOverloadedError) {
        // Degraded, not failed: the turn has no words, and the recogniser catches up for the next ones.
        this.emit('transcript', { type: 'final', text: '', words: [], utterance, latencyMs: performance.now() - started });
        return '';
      }
      this.emit('error', error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const job = this.job;
    this.job = undefined;
    for (const resolve of this.peeks.splice(0)) resolve('');
    job?.withdraw();
    job?.handle.then((handle) => handle.send({ type: 'cancel' } satisfies UtteranceInput), ignore);
  }

  private startUtterance() {
    const utterance = this.utterance;
    const { worker, withdraw } = this.engine.acquire();
    const handle = worker.then((decoder) => {
      const job = decoder.run<FinalHypothesis>('utterance', { interimIntervalMs: this.interimIntervalMs } satisfies UtteranceJob, {
        timeoutMs: this.engine.utteranceTimeoutMs,
        onChunk: (data) => {
          const hypothesis = data as InterimHypothesis;
          if (hypothesis.peek) this.peeks.shift()?.(hypothesis.text);
          else this.emit('transcript', { type: 'interim', text: hypothesis.text, utterance });
        },
      });
      // The decoder goes back to the pool however the utterance ends (final, cancel, crash, timeout).
      const settled = () => {
        this.engine.release(decoder);
        // A peek the decoder never answered (it failed) gets nothing rather than hanging.
        for (const resolve of this.peeks.splice(0)) resolve('');
      };
      job.result.then(settled, settled);
      return job;
    });
    return { handle, withdraw };
  }
}

function ignore(): undefined {
  return undefined;
}
