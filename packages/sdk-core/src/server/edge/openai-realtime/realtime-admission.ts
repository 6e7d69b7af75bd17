import { RealtimeConversation, RealtimeRequestError, realtimeId } from '../../domain/openai-realtime/index.js';
import type { RealtimeAudioSink } from '../../domain/openai-realtime/index.js';
import type { RealtimeServerEventBody } from '../../../contract/openai-realtime-events.js';
import type { Services } from '../../domain/services.js';
import { usageConversationMeter } from '../../domain/usage/conversation-meter.js';
import { UsageLimitExceededError } from '../../../errors/api-error.js';
import type { Principal } from '../../kernel/principal.js';
import { DEFAULT_TURN_DETECTION, type TurnDetectionOptions } from '../../voice/index.js';

/**
 * What both transports of the Realtime API (the `/v1/realtime` websocket, WebRTC calls) check before a conversation
 * and how they open one: the same `RealtimeConversation` behind a transport's `send` (decision 0113).
 *
 * @example
 * const admission = new RealtimeAdmission(services);
 * const problem = await admission.problem(principal, model);
 */
export class RealtimeAdmission {
  constructor(
    private readonly services: Services,
    private readonly turnDetection: TurnDetectionOptions = DEFAULT_TURN_DETECTION,
  ) {}

  /** Why this caller may not talk now (`conversational_seconds` used up), or why `model` cannot answer them, or undefined. */
  async problem(principal: Principal, model: string): Promise<RealtimeRequestError | undefined> {
    try {
      await usageConversationMeter(this.services.usage).assertWithinLimit(principal, 0);
    } catch (error) {
      if (UsageLimitExceededError.isInstance(error)) return new RealtimeRequestError(error.message, null, 'usage_limit_exceeded');
      throw error;
    }
    return this.modelProblem(principal, model);
  }

  /** Why `model` cannot answer this caller, or undefined. */
  async modelProblem(principal: Principal, model: string): Promise<RealtimeRequestError | undefined> {
    if (!model)
      return new RealtimeRequestError('Missing required parameter: the `model` query parameter (an LLM id, GET /v1/llm/list).', 'model', 'missing_model');
    try {
      await this.services.llms.retrieve(principal, model);
      return undefined;
    } catch {
      return new RealtimeRequestError(`No LLM '${model}' is available to this caller (see GET /v1/llm/list).`, 'model', 'model_not_found');
    }
  }

  /** The platform's default voice as this caller may use it (a session starts with it). */
  defaultVoice(principal: Principal): Promise<string> {
    return this.services.voiceSynthesis.resolveVoice(principal, undefined).then(
      (voice) => voice.id,
      () => 'flite-slt',
    );
  }

  /** A conversation of `principal` answered by `model`, its events to `send`; `audioSink` on WebRTC. */
  conversation(
    principal: Principal,
    model: string,
    voice: string,
    transport: { send(event: RealtimeServerEventBody): void; end(reason: string): void; audioSink?: RealtimeAudioSink },
  ): RealtimeConversation {
    const { services } = this;
    return new RealtimeConversation({
      sessionId: realtimeId('sess'),
      principal,
      model,
      voice,
      chat: services.chat,
      speech: services.speech,
      voices: services.voiceSynthesis,
      meter: usageConversationMeter(services.usage),
      turnDetection: this.turnDetection,
      checkModel: async (candidate) => {
        const problem = await this.modelProblem(principal, candidate);
        if (problem) throw problem;
      },
      ...transport,
      logger: services.logger.child({ component: 'openai-realtime' }),
    });
  }
}

/** A thrown value as the `error` event it becomes. */
export function asRequestError(error: unknown): RealtimeRequestError {
  return error instanceof RealtimeRequestError ? error : new RealtimeRequestError(error instanceof Error ? error.message : String(error), null, 'server_error');
}
