import type { Logger } from 'pino';
import type { ServerConfig } from '../../kernel/config.js';
import { ChatGateway, type ChatGatewayDependencies, type ChatMetrics } from './chat-gateway.js';
import { createModelResolver, type LlmLookup, type ModelResolverOptions } from './model-resolver.js';
import type { Transcriber } from './transcriber.js';
import type { SpeechOutput } from '../../kernel/ports/speech-output.js';
import { unmeteredUsage, type UsageMeter } from '../../kernel/ports/usage-meter.js';

export interface ChatGatewayWiring {
  config: ServerConfig;
  logger: Logger;
  llms: LlmLookup;
  /** Per-human token metering (`usageServiceMeter(services.usage)`); without it tokens are neither counted nor limited. */
  usageMeter?: UsageMeter | undefined;
  /** Speech-to-text for `input_audio` parts (`createSpeechTranscriber(services.speech)`). */
  transcriber?: Transcriber | undefined;
  /** Speech of answers for `modalities: ["text", "audio"]`. */
  speechOutput?: SpeechOutput | undefined;
  /** The moderation check for `metadata.moderation` (the voice synthesis service's `moderate`). */
  moderate?: ChatGatewayDependencies['moderate'];
  upstream?: ModelResolverOptions['upstream'];
  onMetrics?: (metrics: ChatMetrics) => void;
}

/**
 * Builds the server's gateway from its services and config.
 *
 * @example
 * const chat = createChatGateway({ config, logger, llms, usageMeter: usageServiceMeter(usage), transcriber: createSpeechTranscriber(speech) });
 */
export function createChatGateway(wiring: ChatGatewayWiring): ChatGateway {
  return new ChatGateway({
    resolveModel: createModelResolver({
      llms: wiring.llms,
      config: wiring.config,
      addressPolicy: { allowLoopback: wiring.config.llm.allowLoopback, allowPrivateNetworks: wiring.config.llm.allowPrivateNetworks },
      upstream: { firstChunkTimeoutMs: wiring.config.llm.firstChunkTimeoutMs, idleTimeoutMs: wiring.config.llm.idleTimeoutMs, ...wiring.upstream },
    }),
    usageMeter: wiring.usageMeter ?? unmeteredUsage,
    transcriber: wiring.transcriber,
    speechOutput: wiring.speechOutput,
    moderate: wiring.moderate,
    logger: wiring.logger,
    ...(wiring.onMetrics ? { onMetrics: wiring.onMetrics } : {}),
  });
}
