import type { ChatCompletionRequest, ChatVoiceOutput } from '../../../contract/chat.js';
import type { Voice } from '../../../contract/voices.js';
import type { Principal } from '../principal.js';

/** Encodings speech is delivered in over HTTP. */
export type AudioFormat = 'mp3' | 'wav';

/** Speech output decided before the model runs: the voice is visible to the caller and the limit not reached. */
export interface SpeechPlan {
  voice: Voice;
  format: AudioFormat;
}

/**
 * Speech of a completion's answer (`modalities: ["text", "audio"]`), as the LLM gateway needs it: `plan`
 * before the model is called (400 for an unknown voice or a used-up limit), `render` once the answer is
 * final. The platform's implementation is `domain/voices/chat-speech-output.ts`.
 *
 * @example
 * const plan = await speech.plan(principal, request);
 * const voice = plan ? await speech.render(principal, plan, answerText, { signal, baseUrl, metadata }) : null;
 */
export interface SpeechOutput {
  /** Undefined when no audio was asked for. */
  plan(principal: Principal, request: Pick<ChatCompletionRequest, 'modalities' | 'audio'>): Promise<SpeechPlan | undefined>;
  /** Speaks `text`; null when there is nothing speakable. */
  render(
    principal: Principal,
    plan: SpeechPlan,
    text: string,
    options: { signal: AbortSignal; baseUrl: string; metadata: Record<string, unknown> },
  ): Promise<ChatVoiceOutput | null>;
}
