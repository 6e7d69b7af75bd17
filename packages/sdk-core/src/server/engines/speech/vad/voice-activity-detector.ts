import { EventEmitter } from 'eventemitter3';
import { int16ToFloat32 } from '../codecs/pcm.js';
import { LinearResampler } from '../codecs/resample.js';
import { EnergyVad, type EnergyVadOptions } from './energy-vad.js';
import { VAD_FRAME_SAMPLES, VAD_SAMPLE_RATE, type FrameScorer, type VadBackend } from './frame-scorer.js';
import { SileroVad } from './silero-vad.js';
import { SpeechSegmenter, type SpeechSegmenterOptions, type VadEvent } from './speech-segmenter.js';

export interface VadStreamOptions extends SpeechSegmenterOptions {
  /** Rate of the PCM16 pushed into the stream (resampled to 16 kHz). */
  sampleRate: number;
}

export interface VadStreamEvents {
  speech_start: (event: Extract<VadEvent, { type: 'speech_start' }>) => void;
  speech_end: (event: Extract<VadEvent, { type: 'speech_end' }>) => void;
  /** Every frame's score, for meters and debugging. */
  frame: (event: { at: number; score: number }) => void;
}

/**
 * Voice activity for one audio stream: push PCM of any size, get `speech_start` / `speech_end` events
 * (returned from `push` and emitted). Pushes are processed in order even if not awaited.
 *
 * @example
 * const stream = vad.createStream({ sampleRate: 48000, hangoverMs: 600 });
 * stream.on('speech_end', () => void stt.finish());
 * await stream.push(frame);
 */
export class VadStream extends EventEmitter<VadStreamEvents> {
  private readonly resampler: LinearResampler;
  private readonly segmenter: SpeechSegmenter;
  private pending = new Float32Array(0);
  private queue: Promise<unknown> = Promise.resolve();
  private framesSeen = 0;

  constructor(
    private readonly scorer: FrameScorer,
    options: VadStreamOptions,
  ) {
    super();
    this.resampler = new LinearResampler(options.sampleRate, VAD_SAMPLE_RATE);
    this.segmenter = new SpeechSegmenter(options);
  }

  get speaking(): boolean {
    return this.segmenter.speaking;
  }

  /** Speech-like frames have started but are not yet long enough to count as speech. */
  get starting(): boolean {
    return this.segmenter.starting;
  }

  /** How long those frames have lasted, ms (0 when none). */
  get startingMs(): number {
    return this.segmenter.startingMs;
  }

  /** In speech: how long the voice has been quiet, ms (before the hangover ends it); 0 outside speech. */
  get quietMs(): number {
    return this.segmenter.quietMs;
  }

  push(pcm: Int16Array): Promise<VadEvent[]> {
    const samples = int16ToFloat32(this.resampler.push(pcm));
    const run = this.queue.then(() => this.process(samples));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Ends the stream, closing open speech. */
  async end(): Promise<VadEvent[]> {
    await this.queue;
    const events = this.segmenter.flush();
    for (const event of events) this.emitEvent(event);
    return events;
  }

  private async process(samples: Float32Array): Promise<VadEvent[]> {
    const combined = new Float32Array(this.pending.length + samples.length);
    combined.set(this.pending);
    combined.set(samples, this.pending.length);
    const events: VadEvent[] = [];
    let offset = 0;
    for (; offset + VAD_FRAME_SAMPLES <= combined.length; offset += VAD_FRAME_SAMPLES) {
      const frame = combined.subarray(offset, offset + VAD_FRAME_SAMPLES);
      const score = await this.scorer.score(frame);
      this.emit('frame', { at: (this.framesSeen++ * VAD_FRAME_SAMPLES) / VAD_SAMPLE_RATE, score });
      for (const event of this.segmenter.push(score, VAD_FRAME_SAMPLES / VAD_SAMPLE_RATE, levelDb(frame))) {
        events.push(event);
        this.emitEvent(event);
      }
    }
    this.pending = combined.slice(offset);
    return events;
  }

  private emitEvent(event: VadEvent): void {
    if (event.type === 'speech_start') this.emit('speech_start', event);
    else this.emit('speech_end', event);
  }
}

/** A frame's level, dBFS (samples in -1..1), at least -100. */
function levelDb(frame: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < frame.length; index++) sum += frame[index]! * frame[index]!;
  return Math.max(-100, 10 * Math.log10(sum / frame.length || 1e-10));
}

export interface VadOptions {
  /** `auto` prefers Silero and falls back to the energy VAD when onnxruntime cannot load. */
  engine?: 'auto' | 'silero' | 'energy';
  sileroModelPath?: string;
  energy?: EnergyVadOptions;
}

/**
 * The VAD service: one loaded model, many streams.
 *
 * @example
 * const vad = await VoiceActivityDetector.create();
 * console.log(vad.backend, vad.fallbackReason); // 'silero', undefined
 */
export class VoiceActivityDetector {
  private constructor(
    private readonly model: VadBackend,
    /** Why Silero is not used, when `backend` is `energy` under `auto`. */
    readonly fallbackReason?: string,
  ) {}

  static async create(options: VadOptions = {}): Promise<VoiceActivityDetector> {
    const engine = options.engine ?? 'auto';
    if (engine === 'energy') return new VoiceActivityDetector(new EnergyVad(options.energy));
    try {
      return new VoiceActivityDetector(await SileroVad.load(options.sileroModelPath));
    } catch (error) {
      if (engine === 'silero') throw error;
      const reason = `Silero VAD unavailable (${error instanceof Error ? error.message : String(error)}); using the energy VAD`;
      return new VoiceActivityDetector(new EnergyVad(options.energy), reason);
    }
  }

  get backend(): 'silero' | 'energy' {
    return this.model.name;
  }

  createStream(options: VadStreamOptions): VadStream {
    return new VadStream(this.model.createScorer(), options);
  }

  close(): Promise<void> {
    return this.model.close();
  }
}
