import type { RealtimeSessionObject, RealtimeSessionUpdate, RealtimeTurnDetection } from '../../../contract/openai-realtime-session.js';
import type { TurnDetectionOptions } from '../../voice/index.js';
import { sessionAudioFormat } from './realtime-audio-format.js';

/** The session a connection starts with: OpenAI's defaults (audio out, server VAD), the platform's voice. */
export function initialSession(id: string, model: string, voice: string, expiresAt: number): RealtimeSessionObject {
  return {
    type: 'realtime',
    object: 'realtime.session',
    id,
    model,
    instructions: '',
    output_modalities: ['audio'],
    audio: {
      input: {
        format: { type: 'audio/pcm', rate: 24_000 },
        transcription: null,
        turn_detection: { type: 'server_vad', create_response: true, interrupt_response: true },
        noise_reduction: null,
      },
      output: { format: { type: 'audio/pcm', rate: 24_000 }, voice, speed: 1 },
    },
    tools: [],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    max_output_tokens: 'inf',
    tracing: null,
    expires_at: expiresAt,
  };
}

/** `session` with `update` applied (fields absent keep their value; the voice is checked by the caller). */
export function updatedSession(session: RealtimeSessionObject, update: RealtimeSessionUpdate): RealtimeSessionObject {
  const input = update.audio?.input;
  const output = update.audio?.output;
  return {
    ...session,
    ...(update.model !== undefined ? { model: update.model } : {}),
    ...(update.instructions !== undefined ? { instructions: update.instructions } : {}),
    ...(update.output_modalities !== undefined ? { output_modalities: [...update.output_modalities] } : {}),
    ...(update.tools !== undefined ? { tools: update.tools } : {}),
    ...(update.tool_choice !== undefined ? { tool_choice: update.tool_choice } : {}),
    ...(update.parallel_tool_calls !== undefined ? { parallel_tool_calls: update.parallel_tool_calls } : {}),
    ...(update.max_output_tokens !== undefined ? { max_output_tokens: update.max_output_tokens } : {}),
    ...(update.tracing !== undefined ? { tracing: update.tracing } : {}),
    audio: {
      input: {
        ...session.audio.input,
        ...(input?.format !== undefined ? { format: sessionAudioFormat(input.format) } : {}),
        ...(input?.transcription !== undefined ? { transcription: input.transcription } : {}),
        ...(input?.turn_detection !== undefined ? { turn_detection: input.turn_detection } : {}),
      },
      output: {
        ...session.audio.output,
        ...(output?.format !== undefined ? { format: sessionAudioFormat(output.format) } : {}),
        ...(output?.voice !== undefined ? { voice: output.voice } : {}),
      },
    },
  };
}

/** The longest wait after an unfinished clause for each `semantic_vad` eagerness (`medium`, `auto`: the server's). */
const EAGERNESS_MAX_WAIT_MS = { low: 2000, high: 600 } as const;

/**
 * The listener's turn detection for the session's: both VAD types run the platform's VAD and adaptive end of turn
 * (the words heard decide the wait), but a `server_vad` that names `silence_duration_ms` ends a turn after that fixed
 * silence; `threshold` is the VAD's; `semantic_vad`'s `eagerness` sets the longest wait. No answer is prepared at a
 * pause: a Realtime client sees every response it is sent.
 */
export function listenerTurnDetection(base: TurnDetectionOptions, detection: RealtimeTurnDetection): TurnDetectionOptions {
  if (detection.type === 'server_vad') {
    const silence = detection.silence_duration_ms;
    return {
      ...base,
      threshold: detection.threshold ?? base.threshold,
      preemptive: false,
      ...(silence !== undefined ? { mode: 'fixed' as const, silenceMs: silence } : { mode: 'adaptive' as const }),
    };
  }
  const eagerness = detection.eagerness ?? 'auto';
  const maxWaitMs = eagerness === 'low' || eagerness === 'high' ? EAGERNESS_MAX_WAIT_MS[eagerness] : base.maxWaitMs;
  return { ...base, mode: 'adaptive', preemptive: false, maxWaitMs: Math.max(maxWaitMs, base.minWaitMs) };
}
