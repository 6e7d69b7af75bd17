import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import type { Store } from '../store/database.js';
import { createBus } from '../bus/create-bus.js';
import type { EventBus } from '../bus/event-bus.js';
import { ApiKeyService } from './auth/api-keys.js';
import { ProjectService } from './auth/projects.js';
import type { ServerSecret } from './auth/server-secret.js';
import { UsageTokenService } from './auth/usage-tokens.js';
import { UsageLimitService } from './usage/usage-limits.js';
import { UsageService } from './usage/usage-service.js';
import { CreditService } from './credits/credit-service.js';
import { WebhookService } from './webhooks/webhook-service.js';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import { PersonaService } from './personas/persona-service.js';
import { ScenarioService } from './scenarios/scenario-service.js';
import { LlmService } from './llms/llm-service.js';
import type { ChatGateway } from '../llm/chat-gateway.js';
import { createChatGateway } from '../llm/create-chat-gateway.js';
import { ChatAudioStore } from '../llm/chat-audio-store.js';
import { ChatSpeechOutput } from '../llm/chat-speech-output.js';
import { createSpeechTranscriber } from '../llm/speech-transcriber.js';
import { ToolService } from './tools/tool-service.js';
import { SecretService } from './secrets/secret-service.js';
import { ContextService } from './contexts/context-service.js';
import { AdvancedMemory } from './contexts/memory/advanced-memory.js';
import { createMemoryExtractor } from './contexts/memory/create-memory-extractor.js';
import { AnalyticsService } from './analytics/analytics-service.js';
import { VoiceService } from './voices/voice-service.js';
import { AppService } from './apps/app-service.js';
import { AppTemplateService } from './apps/app-template-service.js';
import { SubGraphService } from './apps/subgraph-service.js';
import { createMediaService, type MediaService } from '../media/media-service.js';
import { createSpeech, type Speech } from '../speech/create-speech.js';
import { moderatorFrom, speechConfigFrom } from './voices/platform-speech.js';
import { VoiceSynthesisService } from './voices/voice-synthesis-service.js';
import { VoiceCloningService } from './voices/voice-cloning-service.js';
import { RealtimeSessionService } from './realtime/realtime-session-service.js';
import type { AgentSessionHost } from '../agent/agent-session-host.js';
import { createVoiceAgentHost } from '../agent/voice-agent-host.js';

export interface ServiceDependencies {
  store: Store;
  config: ServerConfig;
  logger: Logger;
  secret: ServerSecret;
}

/** The domain layer: one instance per server, shared by every request. */
export interface Services {
  store: Store;
  config: ServerConfig;
  logger: Logger;
  /** Cross-instance events and control: Redis pub/sub with `REDIS_URL`, in process otherwise. */
  bus: EventBus;
  projects: ProjectService;
  apiKeys: ApiKeyService;
  usageTokens: UsageTokenService;
  usageLimits: UsageLimitService;
  /** Usage metering and limit enforcement (record, assertWithinLimit, reserve/commit). */
  usage: UsageService;
  credits: CreditService;
  /** Webhook endpoints and the event outbox (`enqueue(trx, project, event)`). */
  webhooks: WebhookService;
  /** Delivers the outbox; started by the server unless `webhook.dispatch` is false. */
  webhookDispatcher: WebhookDispatcher;
  personas: PersonaService;
  scenarios: ScenarioService;
  llms: LlmService;
  /** The LLM gateway behind `POST /v1/chat/completions` (and the realtime agent's LLM calls). */
  chat: ChatGateway;
  /** Speech generated for chat completions, served at `/v1/chat/audio/{id}` until it expires. */
  chatAudio: ChatAudioStore;
  tools: ToolService;
  secrets: SecretService;
  contexts: ContextService;
  analytics: AnalyticsService;
  voices: VoiceService;
  apps: AppService;
  appTemplates: AppTemplateService;
  subgraphs: SubGraphService;
  /** Realtime media: join tokens, the client URL and the agent transport (embedded endpoint or LiveKit). */
  media: MediaService;
  /** Speech engines (TTS router, STT, VAD, codecs); workers start on first use. */
  speech: Speech;
  /** Voice resolution, moderation, synthesis and its usage metering (generate, the TTS socket). */
  voiceSynthesis: VoiceSynthesisService;
  voiceCloning: VoiceCloningService;
  /** Realtime agent sessions (`/v1/realtime/*`): state, events, rooms, and control of their agents. */
  realtime: RealtimeSessionService;
  /** The voice agents this instance runs (listen, think, speak in a session's room). */
  agents: AgentSessionHost;
}

export async function createServices(dependencies: ServiceDependencies): Promise<Services> {
  const { store, config, logger, secret } = dependencies;
  const apiKeys = new ApiKeyService(store);
  const usageLimits = new UsageLimitService(store);
  // Endpoint secrets are sealed with the settings key; the associated data binds each to its endpoint id.
  const webhooks = new WebhookService(store, secret.derive('settings-encryption'), { allowPrivateAddresses: config.webhook.allowPrivateAddresses });
  const secrets = new SecretService(store, secret.derive('secret-encryption'));
  const llms = new LlmService(store, secrets, config.llm);
  await llms.seedBuiltIns();
  const usage = new UsageService(store, usageLimits, webhooks);
  const voices = new VoiceService(store);
  await voices.seedCatalog();
  const speech = createSpeech(speechConfigFrom(config.speech));
  const voiceSynthesis = new VoiceSynthesisService({ voices, speech, usage, moderator: moderatorFrom(config.speech) });
  const chatAudio = new ChatAudioStore(store, { ttlSeconds: config.llm.audioTtlSeconds });
  const apps = new AppService(store);
  const appTemplates = new AppTemplateService(store, apps);
  const subgraphs = new SubGraphService(store);
  await apps.seedExamples();
  await appTemplates.seed();
  await subgraphs.seed();
  const services: Omit<Services, 'realtime' | 'agents'> = {
    store,
    config,
    logger,
    bus: createBus(config.redisUrl, logger),
    apiKeys,
    projects: new ProjectService(store, apiKeys, secret.derive('settings-encryption')),
    usageTokens: new UsageTokenService(store, secret.derive('usage-token')),
    usageLimits,
    usage,
    credits: new CreditService(store),
    webhooks,
    webhookDispatcher: new WebhookDispatcher(store, webhooks, { allowPrivateAddresses: config.webhook.allowPrivateAddresses, logger }),
    personas: new PersonaService(store),
    scenarios: new ScenarioService(store),
    llms,
    chat: createChatGateway({
      config,
      logger,
      llms,
      usage,
      transcriber: createSpeechTranscriber(speech, { maxSeconds: config.llm.maxInputAudioSeconds }),
      speechOutput: new ChatSpeechOutput({ synthesis: voiceSynthesis, audioStore: chatAudio }),
      moderate: (text, signal) => voiceSynthesis.moderate(text, signal),
    }),
    chatAudio,
    tools: new ToolService(store, config.llm),
    secrets,
    contexts: new ContextService(
      store,
      new AdvancedMemory(store, {
        usage,
        // The gateway is read when a message is ingested, once `services` exists.
        extractor: createMemoryExtractor({ model: config.llm.memoryModel, chat: { complete: (...args) => services.chat.complete(...args) }, logger }),
      }),
    ),
    analytics: new AnalyticsService(store),
    voices,
    apps,
    appTemplates,
    subgraphs,
    media: await createMediaService(config, logger),
    speech,
    voiceSynthesis,
    voiceCloning: new VoiceCloningService(voices, { maxBytes: config.speech.cloneMaxBytes }),
  };
  const agents = createVoiceAgentHost({
    transport: services.media.transport,
    speech: services.speech,
    chat: services.chat,
    voices: services.voiceSynthesis,
    toolAddressPolicy: { allowLoopback: config.llm.allowLoopback, allowPrivateNetworks: config.llm.allowPrivateNetworks },
    logger: logger.child({ component: 'agent' }),
  });
  return { ...services, agents, realtime: new RealtimeSessionService({ ...services, agents }) };
}

/** Releases what services hold (timers, workers, connections). */
export async function closeServices(services: Services): Promise<void> {
  // Agents first: stopping one records the session's end, which needs the store and the outbox.
  await services.agents.close();
  await services.realtime.close();
  await services.bus.close();
  await services.webhookDispatcher.stop();
  await services.media.close();
  await services.speech.close();
}
