import { context, trace, type Attributes } from '@opentelemetry/api';
import { recordFailure, tracer } from '../../kernel/telemetry/tracer.js';
import type { PendingTurn, TurnOutcome } from '../voice-turn.js';

/** A `performance.now()` instant as the wall-clock time spans carry. */
function wallClock(clock: number): Date {
  return new Date(performance.timeOrigin + clock);
}

/**
 * Runs one agent turn inside its trace span, `agent turn`, made active so the LLM gateway's span is its child.
 * The span starts when the human finished (the last speech frame, the typed message's arrival; for a
 * scripted `say`, when it was asked for), so its length is the wait the human lived, VAD and STT included.
 * What the turn measured becomes attributes (`palaver.turn.*_ms`) and timed events; a turn the human
 * interrupted carries `palaver.turn.interrupted: true` and an `interrupted` event at the moment it happened.
 *
 * @example
 * const outcome = await traceTurn(turn, { sessionId, index }, controller.signal, () => runTurn(context, turn, index, controller.signal));
 */
export async function traceTurn(
  turn: PendingTurn,
  where: { sessionId: string; index: number },
  signal: AbortSignal,
  run: () => Promise<TurnOutcome>,
): Promise<TurnOutcome> {
  const startedAt = turn.kind === 'user' ? turn.endedAtClock : turn.receivedAtClock;
  const span = tracer.startSpan('agent turn', {
    startTime: wallClock(startedAt),
    attributes: {
      'palaver.session.id': where.sessionId,
      'palaver.turn.index': where.index,
      'palaver.turn.source': turn.kind === 'user' ? turn.source : 'scripted',
    },
  });
  const interrupted = () => {
    const reason: unknown = signal.reason;
    span.addEvent('interrupted', { 'palaver.turn.interruption': reason instanceof Error ? reason.message : String(reason) });
  };
  signal.addEventListener('abort', interrupted, { once: true });
  try {
    const outcome = await context.with(trace.setSpan(context.active(), span), run);
    const { metrics } = outcome;
    const attributes: Attributes = { 'palaver.turn.outcome': outcome.type, 'palaver.turn.interrupted': metrics.interrupted };
    const measured = {
      end_of_speech_decision_ms: metrics.endOfSpeechDecisionMs,
      stt_final_ms: metrics.sttFinalMs,
      llm_first_token_ms: metrics.llmFirstTokenMs,
      tts_first_audio_ms: metrics.ttsFirstAudioMs,
      response_ms: metrics.responseMs,
    };
    for (const [name, value] of Object.entries(measured)) if (value !== undefined) attributes[`palaver.turn.${name}`] = value;
    if (metrics.endOfTurn) {
      attributes['palaver.turn.end_of_turn.reason'] = metrics.endOfTurn.reason;
      attributes['palaver.turn.end_of_turn.probability'] = metrics.endOfTurn.probability;
      attributes['palaver.turn.end_of_turn.wait_ms'] = metrics.endOfTurn.waitMs;
    }
    span.setAttributes(attributes);
    // Speech-to-text ran before the turn was queued: its milestones are placed after the span's start.
    if (metrics.endOfSpeechDecisionMs !== undefined) {
      span.addEvent('end of speech decided', {}, wallClock(startedAt + metrics.endOfSpeechDecisionMs));
      if (metrics.sttFinalMs !== undefined) span.addEvent('transcript final', {}, wallClock(startedAt + metrics.endOfSpeechDecisionMs + metrics.sttFinalMs));
    }
    if (metrics.responseMs !== undefined) span.addEvent('first agent output', {}, wallClock(startedAt + metrics.responseMs));
    if (outcome.type === 'failed') recordFailure(span, new Error(outcome.message));
    return outcome;
  } catch (error) {
    recordFailure(span, error);
    throw error;
  } finally {
    // The agent aborts every finished turn's signal: only an abort while the turn ran is an interruption.
    signal.removeEventListener('abort', interrupted);
    span.end();
  }
}
