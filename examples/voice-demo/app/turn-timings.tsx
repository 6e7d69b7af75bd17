import type { AgentTurnMetrics } from '@palaver/sdk-core/realtime';
import { latencyLine } from './latency-words.js';

/**
 * How fast the last spoken turn was answered, in plain words: as heard here (the microphone's last speech to the
 * agent's first audio, measured by the connector), else as the agent timed it (`turn_metrics`). Each stage the agent
 * timed, and the earlier turns, show on hover.
 */
export function TurnTimings({ latencies, agentTurns }: { latencies: readonly number[]; agentTurns: readonly AgentTurnMetrics[] }) {
  const line = latencyLine(latencies, agentTurns);
  if (!line) return null;
  return (
    <p className="timings" data-testid="turn-latency" data-ms={line.ms} title={line.details} tabIndex={0}>
      {line.words}
    </p>
  );
}
