import type { ChatCompletionUsage } from '../../../contract/chat.js';

/** What one completion measured: for logs, benchmarks and the realtime agent's latency budget. */
export interface ChatMetrics {
  model: string;
  stream: boolean;
  /** From the request reaching the gateway to the model's first delta; undefined when none came. */
  timeToFirstDeltaMs: number | undefined;
  totalMs: number;
  usage: ChatCompletionUsage;
  outcome: 'completed' | 'aborted' | 'failed';
}
