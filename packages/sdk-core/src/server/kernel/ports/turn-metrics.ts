import type { EndOfTurnReason } from '../../../contract/sdk.js';

/**
 * What one agent turn measured, in milliseconds: the latency budget from the human's last word to the
 * agent's first audio, piece by piece. Fields are absent when the turn had no such stage (a typed turn has
 * no VAD or STT; a text-only turn has no TTS). The voice agent reports it after every turn
 * (`VoiceAgentHostDependencies.onTurnMetrics`); the composition root routes it to the server's metrics, so
 * the agent never sees how it is exported.
 *
 * @example
 * const host = createVoiceAgentHost({ ...dependencies, onTurnMetrics: (turn: TurnMetrics) => metrics.turnMeasured(turn) });
 */
export interface TurnMetrics {
  session: string;
  /** 0-based within the session. */
  turn: number;
  /** What started the turn. */
  source: 'voice' | 'text' | 'scripted';
  /** VAD: from the last speech frame's arrival to the end-of-speech decision (the hangover). */
  endOfSpeechDecisionMs?: number;
  /** STT: from the end-of-speech decision to the final transcript. */
  sttFinalMs?: number;
  /** LLM: from the request to the first text token. */
  llmFirstTokenMs?: number;
  /** TTS: from the first text segment being ready to its first audio. */
  ttsFirstAudioMs?: number;
  /**
   * From the end of the human's speech (voice: the last speech frame's arrival; text: the message's
   * arrival) to the first audio written to the agent's track (or the first text sent, without speech).
   */
  responseMs?: number;
  /** Whether the agent was interrupted during this turn. */
  interrupted: boolean;
  /** The answer was prepared at the human's pause (adaptive turn detection) and played when the turn ended. */
  preparedAnswer?: boolean;
  /** Answers prepared at pauses the human went on after, thrown away (their tokens are metered). */
  discardedAnswers?: number;
  /** Adaptive turn detection: how the words read at the pause that ended the turn, and the wait it chose. */
  endOfTurn?: EndOfTurnDecision;
}

/** The turn detector's reading of the words at a pause and the silence it waits for before the turn ends. */
export interface EndOfTurnDecision {
  reason: EndOfTurnReason;
  /** How likely the words end the turn, 0..1. */
  probability: number;
  /** The silence after the last speech that ends the turn. */
  waitMs: number;
}
