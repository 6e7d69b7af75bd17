import type { RealtimeSessionConfig, RealtimeSessionConfigUpdate } from '../../../contract/realtime.js';
import type { ResolvedGenerative } from './generative-config-resolver.js';

/** Copies the fields of `patch` that were sent (`undefined` means "not sent"; `null` is a value). */
function sentFields<T extends object>(current: T, patch: Partial<T> | undefined): T {
  if (patch === undefined) return current;
  const merged: T = { ...current };
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  return merged;
}

/**
 * The configuration after an update: only what was sent changes. Generative ids that were sent are
 * replaced by their resolved objects (`resolved`); `_extra` is replaced as a whole when sent.
 *
 * @example
 * mergeSessionConfig(config, { output: { speech_synthesis_enabled: false } }, {}) // only that flag differs
 */
export function mergeSessionConfig(current: RealtimeSessionConfig, patch: RealtimeSessionConfigUpdate, resolved: ResolvedGenerative): RealtimeSessionConfig {
  const generative = { ...current.generative };
  if (resolved.llm !== undefined) generative.llm = resolved.llm;
  if (resolved.context !== undefined) generative.context = resolved.context;
  if (resolved.tool_definitions !== undefined) generative.tool_definitions = resolved.tool_definitions;
  if (resolved.voice_override !== undefined) generative.voice_override = resolved.voice_override;
  if (resolved.persona !== undefined) generative.persona = resolved.persona;
  if (resolved.scenario !== undefined) generative.scenario = resolved.scenario;
  if (patch.generative?._extra !== undefined) generative._extra = patch.generative._extra;
  return {
    general: sentFields(current.general, patch.general),
    input: sentFields(current.input, patch.input),
    output: sentFields(current.output, patch.output),
    generative,
  };
}
