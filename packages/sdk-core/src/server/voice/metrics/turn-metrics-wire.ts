import type { AgentTurnMetrics } from '../../../contract/sdk.js';
import type { TurnMetrics } from '../../kernel/ports/turn-metrics.js';

const rounded = (value: number | undefined) => (value === undefined ? undefined : Math.round(value));

/**
 * A turn's measurements as the human's app reads them on the `turn_metrics` topic (`AgentTurnMetrics`):
 * whole milliseconds, snake_case, stages the turn did not have left out.
 *
 * @example
 * connection.sendData(JSON.stringify(wireTurnMetrics(metrics)), { topic: TURN_METRICS_TOPIC, reliable: true });
 */
export function wireTurnMetrics(metrics: TurnMetrics): AgentTurnMetrics {
  const measured = {
    end_of_speech_decision_ms: rounded(metrics.endOfSpeechDecisionMs),
    stt_final_ms: rounded(metrics.sttFinalMs),
    llm_first_token_ms: rounded(metrics.llmFirstTokenMs),
    tts_first_audio_ms: rounded(metrics.ttsFirstAudioMs),
    response_ms: rounded(metrics.responseMs),
    prepared_answer: metrics.preparedAnswer,
    discarded_answers: metrics.discardedAnswers,
  };
  const present = Object.fromEntries(Object.entries(measured).filter(([, value]) => value !== undefined));
  const { endOfTurn } = metrics;
  return {
    turn: metrics.turn,
    source: metrics.source,
    interrupted: metrics.interrupted,
    ...present,
    ...(endOfTurn ? { end_of_turn: { reason: endOfTurn.reason, probability: endOfTurn.probability, wait_ms: Math.round(endOfTurn.waitMs) } } : {}),
  };
}
