import type { AgentTurnMetrics } from '@palaver/sdk-core/realtime';
import { describe, expect, it } from 'vitest';
import { latencyLine, seconds } from './latency-words.js';

const voiceTurn = (turn: number, extra: Partial<AgentTurnMetrics> = {}): AgentTurnMetrics => ({ turn, source: 'voice', interrupted: false, ...extra });

describe('latencyLine', () => {
  it('nothing before the first spoken turn; typed turns do not count', () => {
    expect(latencyLine([], [])).toBeUndefined();
    expect(latencyLine([], [{ turn: 0, source: 'text', response_ms: 300, interrupted: false }])).toBeUndefined();
  });

  it('says the last turn in plain words, with every stage the agent timed in the details', () => {
    const line = latencyLine(
      [710, 660],
      [
        voiceTurn(1, { response_ms: 640 }),
        voiceTurn(2, {
          response_ms: 580,
          end_of_speech_decision_ms: 400,
          end_of_turn: { reason: 'question', probability: 0.9, wait_ms: 400 },
          stt_final_ms: 120,
          llm_first_token_ms: 1,
          tts_first_audio_ms: 26,
          prepared_answer: true,
        }),
      ],
    )!;
    expect(line.words).toBe('Last turn: answered 0.66 s after you stopped');
    expect(line.ms).toBe(660);
    expect(line.details.split('\n')).toEqual([
      "Heard here: 660 ms from the end of your speech to the agent's first sound.",
      'At the agent: 580 ms',
      '  end of turn: 400 ms (read as a finished question)',
      '  speech to text: 120 ms',
      '  LLM first token: 1 ms',
      '  TTS first audio: 26 ms',
      '  answer prepared at the pause',
      'Earlier turns: 0.71 s',
    ]);
  });

  it("falls back on the agent's own timing when the page measured none", () => {
    const line = latencyLine([], [voiceTurn(0, { response_ms: 580 })])!;
    expect(line.words).toBe('Last turn: answered 0.58 s after you stopped');
    expect(line.details).toContain('as the agent timed it');
  });

  it('seconds with two decimals', () => {
    expect(seconds(660)).toBe('0.66 s');
    expect(seconds(1234)).toBe('1.23 s');
  });
});
