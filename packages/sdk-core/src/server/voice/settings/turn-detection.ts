import { RealtimeSessionTurnDetection } from '../../../contract/realtime.js';
import type { TurnDetectionOptions } from '../listener/human-listener.js';

/**
 * The turn detection a listener runs with: the configured one (a session's `input.turn_detection`, an STT
 * node's `turn_detection` setting; both `RealtimeSessionTurnDetection`) over the server's defaults. Fields the
 * configuration does not hold (the VAD's threshold, the pause at which words are read) keep the server's.
 *
 * @example
 * const settings = resolveTurnDetection(tuning.turnDetection, config.input.turn_detection);
 */
export function resolveTurnDetection(base: TurnDetectionOptions, configured: RealtimeSessionTurnDetection | undefined): TurnDetectionOptions {
  if (!configured) return base;
  return {
    ...base,
    mode: configured.mode,
    silenceMs: configured.silence_ms,
    minWaitMs: configured.min_wait_ms,
    maxWaitMs: configured.max_wait_ms,
    preemptive: configured.preemptive,
  };
}

/** A turn detection setting read from outside (a graph node's value): parsed, or why it cannot be used. */
export type ParsedTurnDetection = { ok: true; value: RealtimeSessionTurnDetection | undefined } | { ok: false; message: string };

/**
 * Reads a turn detection setting given as a plain object (an STT node's `turn_detection`): absent (null,
 * undefined) is the server's defaults; anything else must be a `RealtimeSessionTurnDetection`.
 */
export function parseTurnDetection(value: unknown): ParsedTurnDetection {
  if (value === null || value === undefined) return { ok: true, value: undefined };
  const parsed = RealtimeSessionTurnDetection.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, message: `turn_detection is not valid (${where}${issue?.message ?? 'unknown'})` };
}
