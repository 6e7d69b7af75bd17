import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import type { UsageService } from '../services/usage/usage-service.js';
import { ChatGateway, type ChatGatewayDependencies, type ChatMetrics } from './chat-gateway.js';
import type { ChatSpeechOutput } from './chat-speech-output.js';
import { createModelResolver, type LlmLookup, type ModelResolverOptions } from './model-resolver.js';
import type { Transcriber } from './transcriber.js';
import { unmeteredUsage } from './usage-meter.js';
import { usageServiceMeter } from './usage-service-meter.js';

export interface ChatGatewayWiring {
  config: ServerConfig;
  logger: Logger;
  llms: LlmLookup;
  /** The usage service; without it tokens are neither counted nor limited. */
  usage?: Pick<UsageService, 'reserve'> | undefined;
  /** Speech-to-text for `input_audio` parts (`createSpeechTranscriber(services.speech)`). */
  transcriber?: Transcriber | undefined;
  /** Speech of answers for `modalities: ["text", "audio"]`. */
  speechOutput?: ChatSpeechOutput | undefined;
  /** The moderation check for `metadata.moderation` (the voice synthesis service's `moderate`). */
  moderate?: ChatGatewayDependencies['moderate'];
  upstream?: ModelResolverOptions['upstream'];
  onMetrics?: (metrics: ChatMetrics) => void;
}

/**
 * Builds the server's gateway from its services and config.
 *
 * @example
 * const chat = createChatGateway({ config, logger, llms, usage, transcriber: createSpeechTranscriber(speech) });
 */
export function createChatGateway(wiring: ChatGatewayWiring): ChatGateway {
  return new ChatGateway({
    resolveModel: createModelResolver({
      llms: wiring.llms,
      config: wiring.config,
      addressPolicy: { allowLoopback: wiring.config.llm.allowLoopback, allowPrivateNetworks: wiring.config.llm.allowPrivateNetworks },
      upstream: { firstChunkTimeoutMs: wiring.config.llm.firstChunkTimeoutMs, idleTimeoutMs: wiring.config.llm.idleTimeoutMs, ...wiring.upstream },
    }),
    usageMeter: wiring.usage ? usageServiceMeter(wiring.usage) : unmeteredUsage,
    transcriber: wiring.transcriber,
    speechOutput: wiring.speechOutput,
    moderate: wiring.moderate,
    logger: wiring.logger,
    ...(wiring.onMetrics ? { onMetrics: wiring.onMetrics } : {}),
  });
}
