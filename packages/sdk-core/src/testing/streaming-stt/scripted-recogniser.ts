import { hearWords, type HeardWord } from './seeded-word-errors.js';

/** How a fake streaming recogniser hears and what it says; every field but `script` has a default. */
export interface ScriptedTranscriptOptions {
  /** The utterances' texts, in the order they will be spoken: the n-th stretch of speech heard is `script[n]`. */
  script: readonly string[];
  /** Share of words replaced by another word (deterministic for a seed). Default 0. */
  wordErrorRate?: number;
  seed?: number;
  /** Audio between interim results while speech goes on. Default 100 ms. */
  interimIntervalMs?: number;
  /** Wall-clock wait from detecting the end of speech to the final. Default 150 ms. */
  finalDelayMs?: number;
  /** A 10 ms frame louder than this (dBFS RMS) is speech. Default -45. */
  speechThresholdDbfs?: number;
  /** Loud audio needed to start an utterance. Default 40 ms. */
  minSpeechMs?: number;
  /** Shortest silence that ends an utterance, whatever the client's endpointing asks (gaps between words). Default 200 ms. */
  minPauseMs?: number;
  /** Speaking rate the interims assume when they reveal words. Default 0.28 s per word. */
  secondsPerWord?: number;
}

/** A word the fake recognised, on the audio timeline of its connection (seconds). */
export interface ScriptedWord extends HeardWord {
  start: number;
  end: number;
}

export interface RecogniserListener {
  speechStarted(at: number): void;
  /** The words heard so far that are not final yet (the growing prefix of the utterance's script). */
  interim(words: ScriptedWord[], span: { start: number; end: number }): void;
  /** Silence long enough ended the utterance; `at` is where the speech stopped. */
  speechEnded(at: number): void;
  /** Words that will not change any more: after `finalDelayMs` at the end of speech, or at once on `flush`. */
  final(words: ScriptedWord[], span: { start: number; end: number }, reason: 'endpoint' | 'flush'): void;
}

/** The script shared by every connection of one fake server: each utterance heard takes the next text. */
export class ScriptCursor {
  private next = 0;
  constructor(private readonly options: ScriptedTranscriptOptions) {}

  /** How many utterances have been heard. */
  get taken(): number {
    return this.next;
  }

  take(): HeardWord[] {
    const index = this.next++;
    const text = this.options.script[index];
    if (text === undefined) return [];
    return hearWords(text, { rate: this.options.wordErrorRate ?? 0, seed: this.options.seed ?? 1, utterance: index });
  }
}

interface Utterance {
  words: HeardWord[];
  start: number;
  lastSpeech: number;
  /** Words already sent in a final (by `flush`). */
  settled: number;
  lastInterimAt: number;
  spanStart: number;
}

const FRAME_SECONDS = 0.01;

/**
 * The heart of the fake vendors: an energy VAD over the audio received (10 ms frames, on the audio's own
 * timeline), the script's next utterance for each stretch of speech, interims of a growing prefix every
 * `interimIntervalMs` of speech, the end of speech after `max(endpointing, minPauseMs)` of silence, and the final
 * `finalDelayMs` later with word times spread over the speech heard.
 */
export class ScriptedRecogniser {
  private frame: Int16Array;
  private filled = 0;
  private frames = 0;
  private loudRun = 0;
  private utterance: Utterance | undefined;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly pendingFinals = new Set<() => void>();

  constructor(
    readonly sampleRate: number,
    /** The client's endpointing in ms (read on every frame: a session update may change it); false: none. */
    private readonly endpointingMs: () => number | false,
    private readonly cursor: ScriptCursor,
    private readonly options: ScriptedTranscriptOptions,
    private readonly listener: RecogniserListener,
  ) {
    this.frame = new Int16Array(Math.round(sampleRate * FRAME_SECONDS));
  }

  /** Seconds of audio received. */
  get position(): number {
    return (this.frames * this.frame.length + this.filled) / this.sampleRate;
  }

  /** Whether an utterance is being heard (speech started, not ended). */
  get hearing(): boolean {
    return this.utterance !== undefined;
  }

  push(pcm: Int16Array): void {
    let offset = 0;
    while (offset < pcm.length) {
      const take = Math.min(pcm.length - offset, this.frame.length - this.filled);
      this.frame.set(pcm.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === this.frame.length) {
        this.frames += 1;
        this.filled = 0;
        this.onFrame(decibels(this.frame) > (this.options.speechThresholdDbfs ?? -45));
      }
    }
  }

  /**
   * Settles now what has been heard: pending finals go out at once, and the current utterance's words so far (all
   * of them when the speaker has paused) become a final. Returns whether anything was settled.
   */
  flush(): boolean {
    let settled = this.pendingFinals.size > 0;
    for (const send of [...this.pendingFinals]) send();
    const utterance = this.utterance;
    if (utterance) {
      const now = this.position;
      const paused = now - utterance.lastSpeech >= this.minPause;
      const count = paused ? utterance.words.length : this.revealed(utterance);
      if (count > utterance.settled) {
        const words = this.timed(utterance, paused ? 'final' : 'interim').slice(utterance.settled, count);
        this.listener.final(words, { start: utterance.spanStart, end: round(now) }, 'flush');
        utterance.settled = count;
        utterance.spanStart = round(now);
        settled = true;
      }
    }
    return settled;
  }

  /** Forgets the utterance being heard (the client cleared its buffer). */
  reset(): void {
    this.utterance = undefined;
    this.loudRun = 0;
  }

  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.pendingFinals.clear();
  }

  private get minPause(): number {
    return (this.options.minPauseMs ?? 200) / 1000;
  }

  private onFrame(loud: boolean): void {
    const now = this.position;
    if (!this.utterance) {
      this.loudRun = loud ? this.loudRun + FRAME_SECONDS : 0;
      if (this.loudRun + 1e-9 >= (this.options.minSpeechMs ?? 40) / 1000) {
        const start = round(now - this.loudRun);
        this.utterance = { words: this.cursor.take(), start, lastSpeech: now, settled: 0, lastInterimAt: start, spanStart: start };
        this.loudRun = 0;
        this.listener.speechStarted(start);
      }
      return;
    }
    const utterance = this.utterance;
    if (loud) utterance.lastSpeech = now;
    const silence = now - utterance.lastSpeech;
    const interval = (this.options.interimIntervalMs ?? 100) / 1000;
    if (silence < this.minPause && now - utterance.lastInterimAt + 1e-9 >= interval) {
      utterance.lastInterimAt = now;
      const count = this.revealed(utterance);
      if (count > utterance.settled) {
        this.listener.interim(this.timed(utterance, 'interim').slice(utterance.settled, count), { start: utterance.spanStart, end: round(now) });
      }
    }
    const endpointing = this.endpointingMs();
    const wait = Math.max(this.minPause, endpointing === false ? 0 : endpointing / 1000);
    if (silence + 1e-9 >= wait) this.endUtterance(utterance);
  }

  private endUtterance(utterance: Utterance): void {
    this.utterance = undefined;
    const end = round(utterance.lastSpeech);
    this.listener.speechEnded(end);
    const words = this.timed(utterance, 'final').slice(utterance.settled);
    const span = { start: utterance.spanStart, end };
    const send = () => {
      this.pendingFinals.delete(send);
      clearTimeout(timer);
      this.timers.delete(timer);
      this.listener.final(words, span, 'endpoint');
    };
    const timer = setTimeout(send, this.options.finalDelayMs ?? 150);
    this.timers.add(timer);
    this.pendingFinals.add(send);
  }

  /** Words revealed by now at the assumed speaking rate (at least one once speech is heard, all when it is long). */
  private revealed(utterance: Utterance): number {
    const spoken = utterance.lastSpeech - utterance.start;
    const count = Math.max(1, Math.ceil(spoken / (this.options.secondsPerWord ?? 0.28)));
    return Math.min(utterance.words.length, count);
  }

  /** Word times: interims at the assumed rate from the start; finals spread over the speech by word length. */
  private timed(utterance: Utterance, kind: 'interim' | 'final'): ScriptedWord[] {
    const { start, lastSpeech, words } = utterance;
    if (kind === 'interim') {
      const step = this.options.secondsPerWord ?? 0.28;
      return words.map((word, index) => ({
        ...word,
        start: round(Math.min(lastSpeech, start + index * step)),
        end: round(Math.min(lastSpeech, start + (index + 1) * step)),
      }));
    }
    const weights = words.map((word) => word.word.length + 1);
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    let at = start;
    return words.map((word, index) => {
      const duration = ((lastSpeech - start) * weights[index]!) / total;
      const timed = { ...word, start: round(at), end: round(at + duration) };
      at += duration;
      return timed;
    });
  }
}

function decibels(frame: Int16Array): number {
  let sum = 0;
  for (const sample of frame) sum += sample * sample;
  const rms = Math.sqrt(sum / frame.length) / 32768;
  return rms > 0 ? 20 * Math.log10(rms) : -Infinity;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
