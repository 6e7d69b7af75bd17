import type { Logger } from 'pino';
import type { TurnMetrics } from '../kernel/ports/turn-metrics.js';
import { TypedEmitter } from '../kernel/typed-emitter.js';
import type { HeardUtterance } from './listener/human-listener.js';

/** What the listening side tells the answering side before a turn is over. */
export interface VoiceTurnsEvents {
  /** The human paused after these words (adaptive, preemptive turn detection): an answer may be prepared. */
  pause: [text: string];
  /** The human went on after a pause: an answer prepared for it is stale. */
  resumed: [];
}

interface OpenTurn {
  metrics: TurnMetrics;
  /** `performance.now()` of the human's last speech. */
  endedAtClock: number;
}

/**
 * The spoken turns of a graph run, across the nodes that make them: the STT node reports the human's pauses
 * and finished utterances, the LLM node prepares answers at the pauses and tells whether it played one and when
 * its first token came, the TTS node when the first audio went out and when the answer was said (or cut). Each
 * voice turn's measurements then go out as the built-in agent's do (`measured`: the room's `turn_metrics`).
 * A turn starts when an utterance is heard; a new one closes the previous as interrupted.
 *
 * @example
 * const turns = new VoiceTurns(runId, (metrics) => sendTurnMetrics(metrics), logger);
 * turns.heard(utterance);         // STT node
 * turns.answered({ prepared: true, discardedAnswers: 0 });  // LLM node
 * turns.firstAudio(); turns.spoken(false, 42);              // TTS node
 */
export class VoiceTurns {
  private readonly events: TypedEmitter<VoiceTurnsEvents>;
  private open: OpenTurn | undefined;
  private count = 0;

  constructor(
    private readonly run: string,
    private readonly measured: (metrics: TurnMetrics) => void,
    logger: Logger,
  ) {
    this.events = new TypedEmitter((error, event) => logger.error({ err: error, event }, 'a voice turn listener failed'));
  }

  on<E extends keyof VoiceTurnsEvents>(event: E, listener: (...args: VoiceTurnsEvents[E]) => void): () => void {
    return this.events.on(event, listener);
  }

  /** Whether a turn is under way (heard, not yet said): no answer is prepared meanwhile. */
  get busy(): boolean {
    return this.open !== undefined;
  }

  paused(text: string): void {
    if (text !== '') this.events.emit('pause', text);
  }

  resumed(): void {
    this.events.emit('resumed');
  }

  /** The human's utterance is over: a voice turn starts with what listening measured. */
  heard(utterance: HeardUtterance): void {
    if (this.open) this.finish(true);
    const metrics: TurnMetrics = {
      session: this.run,
      turn: this.count++,
      source: 'voice',
      interrupted: false,
      endOfSpeechDecisionMs: utterance.endOfSpeechDecisionMs,
      sttFinalMs: utterance.sttFinalMs,
      ...(utterance.endOfTurn ? { endOfTurn: utterance.endOfTurn } : {}),
    };
    this.open = { metrics, endedAtClock: utterance.speechEndedAt };
  }

  /** The LLM node answers the turn: with the answer prepared at the pause or not, after throwing some away. */
  answered(details: { prepared: boolean; discardedAnswers: number }): void {
    if (!this.open) return;
    this.open.metrics.preparedAnswer = details.prepared;
    this.open.metrics.discardedAnswers = details.discardedAnswers;
  }

  firstToken(ms: number | undefined): void {
    if (this.open && ms !== undefined) this.open.metrics.llmFirstTokenMs ??= ms;
  }

  /** The answer's first audio went out: the human's wait is over. */
  firstAudio(): void {
    const open = this.open;
    if (open && open.metrics.responseMs === undefined) open.metrics.responseMs = performance.now() - open.endedAtClock;
  }

  /**
   * The answer was said (or cut short; `ttsFirstAudioMs`: its first text segment to its first audio): the turn's
   * measurements go out. Speech that did not answer a turn (nothing was heard since) is not a turn.
   */
  spoken(interrupted: boolean, ttsFirstAudioMs: number | undefined): void {
    const open = this.open;
    if (open?.metrics.responseMs === undefined) return;
    if (ttsFirstAudioMs !== undefined) open.metrics.ttsFirstAudioMs = ttsFirstAudioMs;
    this.finish(interrupted);
  }

  private finish(interrupted: boolean): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    open.metrics.interrupted = interrupted;
    this.measured(open.metrics);
  }
}
