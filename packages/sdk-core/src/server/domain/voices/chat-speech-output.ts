import { ChatAudioOutput, audioRequested, type ChatCompletionRequest, type ChatVoiceOutput } from '../../../contract/chat.js';
import type { Voice } from '../../../contract/voices.js';
import { ApiError, BadRequestError } from '../../../errors/api-error.js';
import { AUDIO_CONTENT_TYPES, collectSynthesis, encodeAudio } from '../../engines/speech/index.js';
import type { Principal } from '../../kernel/principal.js';
import type { SpeechOutput, SpeechPlan } from '../../kernel/ports/speech-output.js';
import type { VoiceSynthesisService } from './voice-synthesis-service.js';
import type { ChatAudioStore } from '../../engines/llm/index.js';
import { CHAT_AUDIO_PATH } from '../../../contract/wire.js';

export interface ChatSpeechOutputDependencies {
  synthesis: Pick<VoiceSynthesisService, 'resolveVoice' | 'assertWithinLimit' | 'synthesize' | 'recordUsage'>;
  audioStore: Pick<ChatAudioStore, 'save'>;
}

/**
 * Speech of a completion's answer (`modalities: ["text", "audio"]`): {@link plan} checks the voice and the
 * human's `voice_synthesis_seconds` limit before the model is called, {@link render} synthesizes the final
 * text with the platform's TTS (the voice's engine), stores the file and records the seconds spoken.
 *
 * @example
 * const plan = await speech.plan(principal, request);
 * const voice = plan ? await speech.render(principal, plan, answerText, { signal, baseUrl, metadata }) : null;
 */
export class ChatSpeechOutput implements SpeechOutput {
  constructor(private readonly dependencies: ChatSpeechOutputDependencies) {}

  /** Undefined when no audio was asked for; 400 for an unknown voice or a used-up limit. */
  async plan(principal: Principal, request: Pick<ChatCompletionRequest, 'modalities' | 'audio'>): Promise<SpeechPlan | undefined> {
    if (!audioRequested(request)) return undefined;
    const settings = request.audio ?? ChatAudioOutput.parse({});
    let voice: Voice;
    try {
      voice = await this.dependencies.synthesis.resolveVoice(principal, settings.voice);
    } catch (error) {
      if (ApiError.isInstance(error) && error.status === 404) {
        throw new BadRequestError(`Invalid body: audio.voice: no voice '${settings.voice}' is visible to this caller`, { cause: error });
      }
      throw error;
    }
    await this.dependencies.synthesis.assertWithinLimit(principal);
    return { voice, format: settings.format };
  }

  /** Speaks `text`; null when there is nothing speakable (an answer made of tool calls only). */
  async render(
    principal: Principal,
    plan: SpeechPlan,
    text: string,
    options: { signal: AbortSignal; baseUrl: string; metadata: Record<string, unknown> },
  ): Promise<ChatVoiceOutput | null> {
    if (text.trim() === '') return null;
    const { synthesis, audioStore } = this.dependencies;
    const speech = await collectSynthesis(synthesis.synthesize(plan.voice, { text }, options.signal));
    if (speech.pcm.length === 0) return null;
    const audio = await encodeAudio(speech.pcm, speech.sampleRate, plan.format);
    const stored = await audioStore.save({ project: principal.project, human: principal.human ?? null, audio, contentType: AUDIO_CONTENT_TYPES[plan.format] });
    const seconds = speech.pcm.length / speech.sampleRate;
    await synthesis.recordUsage(principal, seconds, { ...options.metadata, voice: plan.voice.id, characters: text.length, source: 'chat.completions' });
    return { audio_url: `${options.baseUrl}${CHAT_AUDIO_PATH}/${stored.id}`, expires_at: stored.expiresAt };
  }
}
