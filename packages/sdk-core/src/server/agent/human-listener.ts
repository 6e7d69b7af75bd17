import type { Logger } from 'pino';
import type { RemoteAudioTrack } from '../engines/media/agent-transport.js';
import { LinearResampler } from '../engines/speech/codecs/resample.js';
import type { SttEngine, SttSession } from '../engines/speech/stt/stt-engine.js';
import type { VadEvent } from '../engines/speech/vad/speech-segmenter.js';
import { VAD_SAMPLE_RATE } from '../engines/speech/vad/frame-scorer.js';
import type { VadStream, VoiceActivityDetector } from '../engines/speech/vad/voice-activity-detector.js';
import { RecentAudio } from './recent-audio.js';

/** Turn detection settings (VAD). */
export interface TurnDetectionOptions {
  /** Silence after speech before the turn ends (default 550 ms). */
  hangoverMs: number;
  /** Shorter sounds do not count as speech (default 150 ms). */
  minSpeechMs: number;
  /** Silero probability at which a frame is speech (default 0.5). */
  threshold: number;
}

export const DEFAULT_TURN_DETECTION: TurnDetectionOptions = { hangoverMs: 550, minSpeechMs: 150, threshold: 0.5 };

/** Audio from before the VAD's speech start given to the STT, seconds. */
const PREROLL_SECONDS = 0.3;
/** No frame for this long counts as silence (DTX, a muted or stalled sender): the VAD is fed zeros. */
const STALL_MS = 100;
const STALL_CHECK_MS = 40;
/** At most this much silence is filled at once. */
const MAX_FILL_MS = 1000;

/** A finished human utterance. */
export interface HeardUtterance {
  text: string;
  startedAt: Date;
  endedAt: Date;
  /** `performance.now()` when the last speech was live. */
  speechEndedAt: number;
  /** Last speech -> the VAD's end-of-speech decision. */
  endOfSpeechDecisionMs: number;
  /** End-of-speech decision -> final transcript. */
  sttFinalMs: number;
}

/** What the agent does with one utterance of the human. */
export interface UtteranceHandler {
  /** The transcript so far (as the STT revises it). */
  interim(text: string): void;
  /** The utterance ended; its `text` is the final transcript (may be empty: noise). */
  finished(utterance: HeardUtterance): void;
}

export interface HumanListenerCallbacks {
  /**
   * Speech started at `startedAt`. Answer how to handle the utterance, or undefined to ignore it (the
   * agent is speaking and cannot be interrupted).
   */
  speechStarted(startedAt: Date): UtteranceHandler | undefined;
  /** Speech input failed (the STT engine); the listener keeps detecting speech. */
  failed(error: Error): void;
}

export interface HumanListenerOptions {
  track: RemoteAudioTrack;
  vad: VoiceActivityDetector;
  /** Undefined when no STT engine is available: speech is detected (barge-in) but not transcribed. */
  stt: SttEngine | undefined;
  turnDetection: TurnDetectionOptions;
  callbacks: HumanListenerCallbacks;
  logger: Logger;
}

interface OpenUtterance {
  session: SttSession | undefined;
  handler: UtteranceHandler;
  startedAt: Date;
  /** The STT's latest text. */
  text: string;
}

/**
 * Listens to the human's microphone: 48 kHz frames are resampled to 16 kHz once, scored by the VAD,
 * and each utterance (VAD speech start to end, with pre-roll) is streamed into its own STT session as
 * it is spoken, so the final text is ready ~150 ms after the end-of-speech decision. Missing frames are
 * filled with silence by wall time, so a sender that stops sending (Opus DTX) still ends the turn.
 *
 * @example
 * const listener = new HumanListener({ track, vad, stt, turnDetection, callbacks, logger });
 * void listener.run();
 * listener.close();
 */
export class HumanListener {
  private readonly vadStream: VadStream;
  private readonly recent = new RecentAudio(VAD_SAMPLE_RATE, 2);
  private resampler: LinearResampler | undefined;
  private open: OpenUtterance | undefined;
  private chain: Promise<void> = Promise.resolve();
  private lastAudioAt = performance.now();
  private readonly stallTimer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: HumanListenerOptions) {
    const { hangoverMs, minSpeechMs, threshold } = options.turnDetection;
    this.vadStream = options.vad.createStream({ sampleRate: VAD_SAMPLE_RATE, hangoverMs, minSpeechMs, threshold });
    this.stallTimer = setInterval(() => this.fillStall(), STALL_CHECK_MS);
    this.stallTimer.unref();
  }

  get trackSid(): string {
    return this.options.track.trackSid;
  }

  /** Whether the human is speaking now (VAD). */
  get speaking(): boolean {
    return this.vadStream.speaking;
  }

  /** Consumes the track until it ends or the listener is closed. */
  async run(): Promise<void> {
    try {
      for await (const frame of this.options.track.frames()) {
        if (this.closed) break;
        const mono = frame.channels === 1 ? frame.samples : firstChannel(frame.samples, frame.channels);
        if (this.resampler?.inputRate !== frame.sampleRate) this.resampler = new LinearResampler(frame.sampleRate, VAD_SAMPLE_RATE);
        this.enqueue(this.resampler.push(mono), performance.now());
        await this.chain;
      }
    } catch (error) {
      if (!this.closed) this.options.logger.warn({ err: error }, 'reading the human audio track failed');
    } finally {
      this.close();
    }
  }

  /** Stops listening; an utterance being transcribed is abandoned. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.stallTimer);
    this.open?.session?.close();
    this.open = undefined;
  }

  private enqueue(pcm: Int16Array, arrivedAt: number): void {
    this.lastAudioAt = arrivedAt;
    this.chain = this.chain
      .then(() => this.process(pcm, arrivedAt))
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'voice activity detection failed'));
  }

  /** Feeds silence for the time no frame came, while a turn could be ending. */
  private fillStall(): void {
    if (this.closed) return;
    const now = performance.now();
    const gap = now - this.lastAudioAt;
    if (gap < STALL_MS || !this.vadStream.speaking) return;
    const samples = Math.round((Math.min(gap, MAX_FILL_MS) / 1000) * VAD_SAMPLE_RATE);
    this.enqueue(new Int16Array(samples), now);
  }

  private async process(pcm: Int16Array, arrivedAt: number): Promise<void> {
    if (this.closed || pcm.length === 0) return;
    this.recent.append(pcm, arrivedAt);
    const wasOpen = this.open;
    const events = await this.vadStream.push(pcm);
    if (this.closed) return;
    // Audio of an utterance already open goes to its STT; a new one gets the pre-roll, which holds this block.
    if (wasOpen && wasOpen === this.open) wasOpen.session?.push(pcm);
    for (const event of events) this.handle(event);
  }

  private handle(event: VadEvent): void {
    if (event.type === 'speech_start') {
      this.startUtterance(event.at);
      return;
    }
    const open = this.open;
    this.open = undefined;
    if (!open) return;
    const decidedAt = performance.now();
    const speechEndedAt = this.recent.arrivalOf(event.at) ?? decidedAt;
    const endedAt = new Date(Date.now() - (decidedAt - speechEndedAt));
    this.finishUtterance(open, { decidedAt, speechEndedAt, endedAt }).catch((error: unknown) => {
      this.options.logger.error({ err: error }, 'handling the end of an utterance failed');
    });
  }

  private startUtterance(at: number): void {
    const startedAt = new Date(Date.now() - Math.max(0, (this.recent.time - at) * 1000));
    const handler = this.options.callbacks.speechStarted(startedAt);
    if (!handler) return;
    const stt = this.options.stt;
    let session: SttSession | undefined;
    if (stt) {
      try {
        session = stt.createSession({ sampleRate: VAD_SAMPLE_RATE });
      } catch (error) {
        this.options.callbacks.failed(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const open: OpenUtterance = { session, handler, startedAt, text: '' };
    this.open = open;
    if (!session) return;
    session.on('transcript', (transcript) => {
      if (transcript.type !== 'interim' || transcript.text === open.text || this.open !== open) return;
      open.text = transcript.text;
      handler.interim(transcript.text);
    });
    session.on('error', () => undefined);
    session.push(this.recent.since(at - PREROLL_SECONDS));
  }

  private async finishUtterance(open: OpenUtterance, timing: { decidedAt: number; speechEndedAt: number; endedAt: Date }): Promise<void> {
    let text = '';
    try {
      text = open.session ? (await open.session.finish()).trim() : '';
    } catch (error) {
      if (!this.closed) this.options.callbacks.failed(error instanceof Error ? error : new Error(String(error)));
    } finally {
      open.session?.close();
    }
    if (this.closed) return;
    open.handler.finished({
      text,
      startedAt: open.startedAt,
      endedAt: timing.endedAt,
      speechEndedAt: timing.speechEndedAt,
      endOfSpeechDecisionMs: timing.decidedAt - timing.speechEndedAt,
      sttFinalMs: performance.now() - timing.decidedAt,
    });
  }
}

function firstChannel(samples: Int16Array, channels: number): Int16Array {
  const mono = new Int16Array(Math.floor(samples.length / channels));
  for (let index = 0; index < mono.length; index += 1) mono[index] = samples[index * channels]!;
  return mono;
}
