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

function describeAgentTurn(turn: AgentTurnMetrics): string {
  const parts = [
    turn.end_of_speech_decision_ms !== undefined ? `end of turn ${turn.end_of_speech_decision_ms} ms${turn.end_of_turn ? ` (read as ${READINGS[turn.end_of_turn.reason]})` : ''}` : undefined,
    turn.stt_final_ms !== undefined ? `STT ${turn.stt_final_ms} ms` : undefined,
    turn.llm_first_token_ms !== undefined ? `LLM first token ${turn.llm_first_token_ms} ms` : undefined,
    turn.tts_first_audio_ms !== undefined ? `TTS ${turn.tts_first_audio_ms} ms` : undefined,
  ].filter((part) => part !== undefined);
  const thrownAway = turn.discarded_answers ? `, ${turn.discarded_answers} thrown away` : '';
  return `${turn.response_ms ?? '?'} ms at the agent (${parts.join(', ')})${turn.prepared_answer ? `, answer prepared at the pause${thrownAway}` : thrownAway}`;
}

/**
 * How fast each spoken turn was answered: as heard here (the microphone's last speech to the agent's first
 * audio, measured by the connector) and as the agent timed it (`turn_metrics`).
 */
export function TurnTimings({ latencies, agentTurns }: { latencies: readonly number[]; agentTurns: readonly AgentTurnMetrics[] }) {
  const voiceTurns = agentTurns.filter((turn) => turn.source === 'voice');
  if (latencies.length === 0 && voiceTurns.length === 0) return null;
  const rows = Math.max(latencies.length, voiceTurns.length);
  return (
    <section className="timings">
      <h2>Turn latency</h2>
      <ol data-testid="turn-latencies">
        {Array.from({ length: rows }, (_, index) => (
          <li key={index}>
            {latencies[index] !== undefined ? <strong data-testid="turn-latency">{latencies[index]} ms</strong> : <strong>—</strong>} heard here
            {voiceTurns[index] && <span className="agent-view"> · {describeAgentTurn(voiceTurns[index])}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
