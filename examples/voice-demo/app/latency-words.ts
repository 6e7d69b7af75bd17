import type { AgentTurnMetrics, EndOfTurnReason } from '@palaver/sdk-core/realtime';

/** How the turn detector read the words at the pause that ended the turn, in words. */
const READINGS: Record<EndOfTurnReason, string> = {
  question: 'a finished question',
  statement: 'a finished statement',
  reply: 'a short reply',
  short: 'a word or two',
  unsure: 'an unsure ending',
  continuation: 'an unfinished clause',
  filler: 'a hesitation',
  empty: 'no words',
};

/** The last spoken turn's latency: one line in plain words, and the details behind it. */
export interface LatencyLine {
  /** E.g. `Last turn: answered 0.66 s after you stopped`. */
  words: string;
  /** The latency the line states, in ms. */
  ms: number;
  /** Every stage the agent timed, one per line (for a tooltip). */
  details: string;
}

/** `660` -> `0.66 s`. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function agentStages(turn: AgentTurnMetrics): string[] {
  const reading = turn.end_of_turn ? ` (read as ${READINGS[turn.end_of_turn.reason]})` : '';
  const stages = [
    turn.end_of_speech_decision_ms !== undefined ? `end of turn: ${turn.end_of_speech_decision_ms} ms${reading}` : undefined,
    turn.stt_final_ms !== undefined ? `speech to text: ${turn.stt_final_ms} ms` : undefined,
    turn.llm_first_token_ms !== undefined ? `LLM first token: ${turn.llm_first_token_ms} ms` : undefined,
    turn.tts_first_audio_ms !== undefined ? `TTS first audio: ${turn.tts_first_audio_ms} ms` : undefined,
    turn.prepared_answer ? 'answer prepared at the pause' : undefined,
    turn.discarded_answers ? `answers thrown away: ${turn.discarded_answers}` : undefined,
  ];
  return stages.filter((stage) => stage !== undefined).map((stage) => `  ${stage}`);
}

/**
 * The latency line of the last spoken turn: as heard here (the microphone's last speech to the agent's first audio,
 * measured by the connector), else as the agent timed it; undefined before the first. Heard latencies and the
 * agent's voice turns pair up by position, as they arrive.
 *
 * @example
 * latencyLine([660], [{ turn: 1, source: 'voice', response_ms: 580, interrupted: false }])?.words; // 'Last turn: answered 0.66 s after you stopped'
 */
export function latencyLine(latencies: readonly number[], agentTurns: readonly AgentTurnMetrics[]): LatencyLine | undefined {
  const voiceTurns = agentTurns.filter((turn) => turn.source === 'voice');
  const last = Math.max(latencies.length, voiceTurns.length) - 1;
  if (last < 0) return undefined;
  const heard = latencies[last];
  const turn = voiceTurns[last];
  const ms = heard ?? turn?.response_ms;
  if (ms === undefined) return undefined;
  const details = [
    heard !== undefined
      ? `Heard here: ${heard} ms from the end of your speech to the agent's first sound.`
      : 'Not measured here (no microphone level): as the agent timed it.',
    ...(turn ? [`At the agent: ${turn.response_ms !== undefined ? `${turn.response_ms} ms` : 'not timed'}`, ...agentStages(turn)] : []),
    ...(last > 0 ? [`Earlier turns: ${latencies.slice(0, last).map(seconds).join(', ') || 'not measured here'}`] : []),
  ];
  return { words: `Last turn: answered ${seconds(ms)} after you stopped`, ms, details: details.join('\n') };
}
