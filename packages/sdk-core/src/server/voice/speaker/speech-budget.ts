import { UsageLimitExceededError } from '../../../errors/api-error.js';
import type { Principal } from '../../kernel/principal.js';
import type { AgentVoices } from './agent-voice.js';

/** Why the agent may not speak now; a `failed` message is a sentence for the human. */
export type SpeechRefusal = { type: 'usage_limit_exceeded'; message: string } | { type: 'failed'; message: string };

/**
 * Checks, before an utterance, that the principal's human has `voice_synthesis_seconds` left (the same
 * check as `POST /v1/voice/generate`). Undefined means speak; without a metering service nothing is
 * checked. A check that cannot be made refuses (as `/v1/voice/generate` would fail) rather than speak unmetered.
 *
 * @example
 * const refusal = await speechBudgetRefusal(dependencies.voices, principal);
 * if (refusal) return { ...refusal, metrics };
 */
export async function speechBudgetRefusal(voices: AgentVoices | undefined, principal: Principal): Promise<SpeechRefusal | undefined> {
  if (!voices?.assertWithinLimit) return undefined;
  try {
    await voices.assertWithinLimit(principal);
    return undefined;
  } catch (error) {
    if (UsageLimitExceededError.isInstance(error)) return { type: 'usage_limit_exceeded', message: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { type: 'failed', message: `The agent could not check your speech budget: ${message}` };
  }
}
