import type { Logger } from 'pino';
import type { RemoteAudioTrack } from '../../engines/media/index.js';
import {
  LinearResampler,
  type StreamingFinal,
  type StreamingSttMeter,
  type SttEngine,
  type SttSession,
  type TranscriptWord,
  VAD_SAMPLE_RATE,
  type VadEvent,
  type VadStream,
  type VoiceActivityDetector,
} from '../../engines/speech/index.js';
import type { EndOfTurnReason } from '../../../contract/sdk.js';
import type { EndOfTurnDecision } from '../../kernel/ports/turn-metrics.js';
import { RecentAudio } from './recent-audio.js';
import { StreamingListeningStt, type TrackStream } from './streaming-listening-stt.js';
import type { StreamSegmentSession } from './stream-segment-session.js';
import { heardConfidence, scoreEndOfTurn } from '../turn-taking/end-of-turn-scorer.js';
import { DEFAULT_TURN_END, turnEndWait, type TurnEndDecision, type TurnEndSettings } from '../turn-taking/turn-end-policy.js';

/** Turn detection settings: the VAD's, and how a turn ends (fixed silence, or adaptive to the words). */
export interface TurnDetectionOptions extends TurnEndSettings {
  /** Shorter sounds do not count as speech (default 150 ms). */
  minSpeechMs: number;
  /** Silero probability at which a frame is speech (default 0.5). */
  threshold: number;
  /** Speech-like audio this long is reported as likely speech (barge-in), before `minSpeechMs` (default 64 ms). */
  bargeInMs: number;
}

export const DEFAULT_TURN_DETECTION: TurnDetectionOptions = { ...DEFAULT_TURN_END, minSpeechMs: 150, threshold: 0.5, bargeInMs: 64 };

/** Audio from before the VAD's speech start given to the STT, seconds. */
const PREROLL_SECONDS = 0.3;
/** No frame for this long counts as silence (DTX, a muted or stalled sender): the VAD is fed zeros. */
const STALL_MS = 100;
const STALL_CHECK_MS = 40;
/** At most this much silence is filled at once. */
const MAX_FILL_MS = 1000;
/** Early words (before the pause) start an answer only when they read at least this likely as a finished turn. */
const EARLY_READ_MIN_PROBABILITY = 0.5;
/** While speech may be starting at the end of a wait, the decision is checked again this often. */
const RECHECK_MS = 32;
/**
 * A streaming vendor's endpointing hint (its end of speech) ends a pause's wait early only when the words read at
 * least this likely as a finished turn: after an unfinished clause ("a table for") the vendor's silence rule is no
 * better than ours, and the words keep the turn open.
 */
const VENDOR_HINT_MIN_PROBABILITY = 0.5;

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
  /** Pauses inside the utterance the human went on after (adaptive turn detection). */
  resumptions: number;
  /** Adaptive turn detection: how the words read at the pause that ended the turn, and the wait chosen. */
  endOfTurn?: EndOfTurnDecision;
}

/** A pause of the human (adaptive turn detection): the words so far and how long the turn end waits. */
export interface HeardPause {
  text: string;
  /** `performance.now()` of the last speech. */
  speechEndedAt: number;
  /** The turn ends this long after the last speech unless the human goes on. */
  waitMs: number;
  /** The end-of-turn scorer's probability for `text`. */
  probability: number;
  /** Why the words read as they did. */
  reason: EndOfTurnReason;
}

/** What the agent does with one utterance of the human. */
export interface UtteranceHandler {
  /** The transcript so far (as the STT revises it). */
  interim(text: string): void;
  /**
   * The human just went quiet (adaptive): the words so far as the STT's latest interim has them, before the
   * segment's final text (which `paused` brings) — early enough to start preparing an answer.
   */
  pausing?(text: string): void;
  /** The human paused; the turn ends after `waitMs` unless they go on (adaptive turn detection). */
  paused?(pause: HeardPause): void;
  /** The human went on after a pause: the utterance continues. */
  resumed?(): void;
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
  /**
   * Speech is probably starting (`bargeInMs` of speech-like audio, before `minSpeechMs` confirms it): early
   * enough to stop the agent's voice. Once per onset, only while no utterance is open.
   */
  speechLikely?(): void;
}

export interface HumanListenerOptions {
  track: RemoteAudioTrack;
  vad: VoiceActivityDetector;
  /**
   * Undefined when no STT engine is available: speech is detected (barge-in) but not transcribed. A
   * {@link StreamingListeningStt} (as `loadListeningEngines` gives when a hosted streaming engine is configured)
   * gets one vendor stream for the track, fed all the audio as it arrives.
   */
  stt: SttEngine | undefined;
  /** A streaming engine's audio seconds, reported once when the track's stream ends (the session's human's usage). */
  meter?: StreamingSttMeter;
  turnDetection: TurnDetectionOptions;
  callbacks: HumanListenerCallbacks;
  logger: Logger;
}

interface OpenUtterance {
  session: SttSession | undefined;
  handler: UtteranceHandler;
  startedAt: Date;
  /** Final texts of the segments before pauses (adaptive), in order. */
  segments: Array<Promise<string>>;
  /** The STT's latest text of the segment being spoken. */
  text: string;
  /** The recogniser's words of the last non-empty final segment, with their confidence (where it tells). */
  lastFinalWords: TranscriptWord[];
  /** Text of the segments already final (for interim display). */
  settledText: string;
  /** Set once the words were read early in the current quiet (adaptive, preemptive), until the voice is back. */
  earlyRead: boolean;
  /** Set while the human is silent after speech (adaptive): the turn ends when its timer fires. */
  pause: { speechEndedAt: number; timer: NodeJS.Timeout | undefined; decision?: EndOfTurnDecision; decide?: () => void } | undefined;
  resumptions: number;
}

/**
 * Listens to the human's microphone: 48 kHz frames are resampled to 16 kHz once, scored by the VAD,
 * and each utterance (VAD speech start to end, with pre-roll) is streamed into its own STT session as
 * it is spoken. Missing frames are filled with silence by wall time, so a sender that stops sending (Opus
 * DTX) still ends the turn.
 *
 * How a turn ends: `fixed`, after `silenceMs` of silence (then the final text comes ~150 ms later).
 * `adaptive`, a `pauseMs` silence finishes the STT segment spoken so far, the words heard decide how long
 * to wait (`turnEndWait`), the handler hears of the pause (to prepare an answer), and the turn ends when
 * that wait has passed in silence; speech before then resumes the same utterance (a new STT segment).
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
  private onsetReported = false;
  private readonly stallTimer: NodeJS.Timeout;
  private closed = false;
  /** The streaming engine's one stream for this track (undefined without one, or once it failed). */
  private trackStream: TrackStream | undefined;

  constructor(private readonly options: HumanListenerOptions) {
    const { mode, silenceMs, pauseMs, minSpeechMs, threshold } = options.turnDetection;
    const hangoverMs = mode === 'fixed' ? silenceMs : pauseMs;
    this.vadStream = options.vad.createStream({ sampleRate: VAD_SAMPLE_RATE, hangoverMs, minSpeechMs, threshold });
    this.stallTimer = setInterval(() => this.fillStall(), STALL_CHECK_MS);
    this.stallTimer.unref();
    if (options.stt instanceof StreamingListeningStt) this.trackStream = this.openTrackStream(options.stt);
    // A phone caller's decoders (adapted to narrowband speech with `phoneAdaptation`) load now, not at its first words.
    else if (this.narrowband) options.stt?.warmUp?.({ narrowband: true }).catch(() => undefined);
  }

  /** A phone caller: its speech came through G.711 (300-3400 Hz). */
  private get narrowband(): boolean {
    return this.options.track.participant.kind === 'sip';
  }

  private openTrackStream(stt: StreamingListeningStt): TrackStream {
    const stream = stt.openTrack({
      sampleRate: VAD_SAMPLE_RATE,
      meter: this.options.meter,
      logger: this.options.logger,
      failed: (error) => {
        if (this.trackStream === stream) this.trackStream = undefined;
        if (!this.closed) this.options.callbacks.failed(error);
      },
    });
    return stream;
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
    clearTimeout(this.open?.pause?.timer);
    this.open?.session?.close();
    this.open = undefined;
    void this.trackStream?.close();
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
    // A streaming vendor hears everything as it arrives (its own endpointing needs the silences too).
    this.trackStream?.push(pcm);
    const wasOpen = this.open;
    const events = await this.vadStream.push(pcm);
    if (this.closed) return;
    this.reportOnset();
    // Audio of an utterance already open goes to its STT; a new one gets the pre-roll, which holds this block.
    // During a pause nothing is sent: the next segment starts with its own pre-roll if the human goes on.
    if (wasOpen && wasOpen === this.open && !wasOpen.pause) wasOpen.session?.push(pcm);
    for (const event of events) this.handle(event);
    this.readEarly();
  }

  /**
   * Adaptive, preemptive: the voice has been quiet for `prepareMs` (not yet a pause): the decoder's words so
   * far go to the handler when they read as a finished turn, to start preparing an answer. Once per quiet.
   * Words that read as unfinished ("my favourite") wait for the pause: the turn would wait long anyway.
   */
  private readEarly(): void {
    const open = this.open;
    const { mode, preemptive, prepareMs, pauseMs } = this.options.turnDetection;
    if (!open || open.pause || mode !== 'adaptive' || !preemptive || prepareMs >= pauseMs) return;
    const quietMs = this.vadStream.quietMs;
    if (quietMs === 0) {
      open.earlyRead = false;
      return;
    }
    if (open.earlyRead || quietMs < prepareMs) return;
    open.earlyRead = true;
    void this.readWordsSoFar(open, () => this.open === open && !open.pause && this.vadStream.quietMs > 0).then((text) => {
      if (text !== undefined && scoreEndOfTurn(text).probability >= EARLY_READ_MIN_PROBABILITY) open.handler.pausing?.(text);
    });
  }

  /**
   * The words so far, early: the decoder's hypothesis now (where it can tell), else its latest interim;
   * undefined when there are none or the human is no longer quiet.
   */
  private async readWordsSoFar(open: OpenUtterance, stillQuiet: () => boolean): Promise<string | undefined> {
    const soFar = (segment: string) => [open.settledText, segment.trim()].filter((text) => text !== '').join(' ');
    const peeking = open.session?.peek?.();
    const text = peeking ? soFar(await peeking) : soFar(open.text);
    return text === '' || !stillQuiet() ? undefined : text;
  }

  /** Likely speech while nobody speaks: once per onset. */
  private reportOnset(): void {
    const starting = this.vadStream.startingMs;
    if (starting === 0) {
      this.onsetReported = false;
      return;
    }
    if (this.onsetReported || this.open || starting < this.options.turnDetection.bargeInMs) return;
    this.onsetReported = true;
    this.options.callbacks.speechLikely?.();
  }

  private handle(event: VadEvent): void {
    const open = this.open;
    if (event.type === 'speech_start') {
      if (open?.pause) this.resume(open, event.at);
      else this.startUtterance(event.at);
      return;
    }
    if (!open) return;
    const decidedAt = performance.now();
    const speechEndedAt = this.recent.arrivalOf(event.at) ?? decidedAt;
    if (this.options.turnDetection.mode === 'fixed') {
      this.end(open, speechEndedAt);
      return;
    }
    this.pause(open, speechEndedAt);
  }

  /** Adaptive: the human paused. The segment's text is made final, then the words decide the wait. */
  private pause(open: OpenUtterance, speechEndedAt: number): void {
    const pause: NonNullable<OpenUtterance['pause']> = { speechEndedAt, timer: undefined };
    open.pause = pause;
    let early: string | undefined;
    // These early words only check the final's reading of the ending: an answer for them would be thrown away
    // whenever the final, ~100 ms later, reads other words (9 instead of 11 thrown away in 8 bench turns, same latency).
    // Not with a streaming vendor: its interim lags the audio (the last words are missing: "my favourite colour is"),
    // while the finalized final covers all of it.
    if (!this.trackStream) {
      void this.readWordsSoFar(open, () => open.pause === pause).then((text) => {
        early = text;
      });
    }
    if (open.session) {
      const segment = open.session.finish().then(
        (text) => text.trim(),
        (error: unknown) => {
          if (!this.closed) this.options.callbacks.failed(error instanceof Error ? error : new Error(String(error)));
          return '';
        },
      );
      open.segments.push(segment);
    }
    void this.textOf(open).then((text) => {
      if (open.pause !== pause || this.closed) return;
      open.settledText = text;
      // As sure as the least sure reading: when the decoder's early words and its final disagree on the ending
      // ("near the" / "nearby"), the longer wait of the two holds.
      // Words at the end the recogniser is unsure of do not decide how the turn ends, nor words it was mostly unsure of.
      const heard = heardConfidence(open.lastFinalWords, this.options.turnDetection.unsureWordConfidence);
      const decision = longerWait(
        turnEndWait(this.options.turnDetection, text, heard),
        early === undefined ? undefined : turnEndWait(this.options.turnDetection, early),
      );
      const remaining = Math.max(0, decision.waitMs - (performance.now() - speechEndedAt));
      const decide = () => {
        if (open.pause !== pause || this.open !== open) return;
        // Something is starting (not yet long enough to be speech): wait a frame more rather than cut in.
        if (this.vadStream.starting) pause.timer = setTimeout(decide, RECHECK_MS);
        else this.end(open, speechEndedAt);
      };
      pause.timer = setTimeout(decide, remaining);
      pause.decision = { reason: decision.score.reason, probability: decision.score.probability, waitMs: decision.waitMs };
      pause.decide = decide;
      open.handler.paused?.({ text, speechEndedAt, ...pause.decision });
    });
  }

  /**
   * The streaming vendor called the end of the speech: a pause whose words read as a finished turn ends now
   * rather than at the end of its wait; one whose words go on keeps its wait (the hint is a signal, not a rule).
   */
  private vendorEndOfSpeech(open: OpenUtterance, final: StreamingFinal): void {
    const pause = open.pause;
    if (!pause?.decide || !pause.decision || this.open !== open || pause.decision.probability < VENDOR_HINT_MIN_PROBABILITY) return;
    this.options.logger.debug({ probability: pause.decision.probability, waitMs: pause.decision.waitMs, end: final.end }, 'the vendor ended the speech');
    clearTimeout(pause.timer);
    pause.decide();
  }

  /** Adaptive: speech again before the turn ended: the same utterance goes on in a new STT segment. */
  private resume(open: OpenUtterance, at: number): void {
    clearTimeout(open.pause?.timer);
    open.pause = undefined;
    open.resumptions += 1;
    open.text = '';
    open.handler.resumed?.();
    open.session?.push(this.recent.since(at - PREROLL_SECONDS));
  }

  /** The turn is over: the utterance is closed and its final text handed over. */
  private end(open: OpenUtterance, speechEndedAt: number): void {
    clearTimeout(open.pause?.timer);
    this.open = undefined;
    const decidedAt = performance.now();
    const endedAt = new Date(Date.now() - (decidedAt - speechEndedAt));
    this.finishUtterance(open, { decidedAt, speechEndedAt, endedAt, endOfTurn: open.pause?.decision }).catch((error: unknown) => {
      this.options.logger.error({ err: error }, 'handling the end of an utterance failed');
    });
  }

  /** The final texts of the segments so far, joined. */
  private async textOf(open: OpenUtterance): Promise<string> {
    return (await Promise.all(open.segments)).filter((text) => text !== '').join(' ');
  }

  private startUtterance(at: number): void {
    const startedAt = new Date(Date.now() - Math.max(0, (this.recent.time - at) * 1000));
    const handler = this.options.callbacks.speechStarted(startedAt);
    if (!handler) return;
    const session = this.createSession();
    const open: OpenUtterance = {
      session,
      handler,
      startedAt,
      segments: [],
      lastFinalWords: [],
      text: '',
      settledText: '',
      earlyRead: false,
      pause: undefined,
      resumptions: 0,
    };
    this.open = open;
    if (!session) return;
    if (this.trackStream) (session as StreamSegmentSession).onEndOfSpeech = (final) => this.vendorEndOfSpeech(open, final);
    session.on('transcript', (transcript) => {
      if (transcript.type === 'final') {
        if (transcript.text.trim() !== '') open.lastFinalWords = transcript.words ?? [];
        return;
      }
      if (transcript.type !== 'interim' || transcript.text === open.text || this.open !== open || open.pause) return;
      open.text = transcript.text;
      handler.interim(open.settledText === '' ? transcript.text : `${open.settledText} ${transcript.text}`);
    });
    session.on('error', () => undefined);
    session.push(this.recent.since(at - PREROLL_SECONDS));
  }

  /** The utterance's STT session: over the track's stream (streaming engine), else a new session of the engine. */
  private createSession(): SttSession | undefined {
    if (this.trackStream) return this.trackStream.session();
    if (this.options.stt instanceof StreamingListeningStt) return undefined;
    try {
      return this.options.stt?.createSession({ sampleRate: VAD_SAMPLE_RATE, narrowband: this.narrowband });
    } catch (error) {
      this.options.callbacks.failed(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    }
  }

  private async finishUtterance(
    open: OpenUtterance,
    timing: { decidedAt: number; speechEndedAt: number; endedAt: Date; endOfTurn: EndOfTurnDecision | undefined },
  ): Promise<void> {
    let text = '';
    try {
      // Adaptive: the segment spoken after the last pause (if any) is still open; fixed: the only one.
      if (open.session && !open.pause) open.segments.push(open.session.finish().then((segment) => segment.trim()));
      text = await this.textOf(open);
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
      resumptions: open.resumptions,
      ...(timing.endOfTurn ? { endOfTurn: timing.endOfTurn } : {}),
    });
  }
}

function longerWait(final: TurnEndDecision, early: TurnEndDecision | undefined): TurnEndDecision {
  return early !== undefined && early.waitMs > final.waitMs ? early : final;
}

function firstChannel(samples: Int16Array, channels: number): Int16Array {
  const mono = new Int16Array(Math.floor(samples.length / channels));
  for (let index = 0; index < mono.length; index += 1) mono[index] = samples[index * channels]!;
  return mono;
}
