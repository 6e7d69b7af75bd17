import type { Logger } from 'pino';
import type { ServerConfig } from '../kernel/config.js';
import type { EventBus } from '../kernel/event-bus.js';
import type { AgentSessionHost } from '../kernel/ports/agent-session-host.js';
import type { ServerMetrics } from '../kernel/telemetry/server-metrics.js';
import type { Store } from '../store/database.js';
import type { ChatAudioStore, ChatGateway } from '../engines/llm/index.js';
import type { MediaService } from '../engines/media/index.js';
import type { Speech } from '../engines/speech/index.js';
import type { AnalyticsService } from './analytics/analytics-service.js';
import type { AppService } from './apps/app-service.js';
import type { AppTemplateService } from './apps/app-template-service.js';
import type { SubGraphService } from './apps/subgraph-service.js';
import type { ApiKeyService } from './auth/api-keys.js';
import type { ProjectService } from './auth/projects.js';
import type { ServerSecret } from './auth/server-secret.js';
import type { UsageTokenService } from './auth/usage-tokens.js';
import type { ContextService } from './contexts/context-service.js';
import type { CreditService } from './credits/credit-service.js';
import type { LlmService } from './llms/llm-service.js';
import type { PersonaService } from './personas/persona-service.js';
import type { PartnerAvatarService } from './realtime/partner-avatar-service.js';
import type { AppRunService } from './apps/app-run-service.js';
import type { RealtimeSessionService } from './realtime/realtime-session-service.js';
import type { ResponsesService } from './responses/responses-service.js';
import type { ScenarioService } from './scenarios/scenario-service.js';
import type { SecretService } from './secrets/secret-service.js';
import type { SipService } from './sip/sip-service.js';
import type { SipEndpoint } from '../engines/telephony/index.js';
import type { ToolService } from './tools/tool-service.js';
import type { UsageLimitService } from './usage/usage-limits.js';
import type { UsageService } from './usage/usage-service.js';
import type { VoiceCloningService } from './voices/voice-cloning-service.js';
import type { VoiceService } from './voices/voice-service.js';
import type { VoiceSynthesisService } from './voices/voice-synthesis-service.js';
import type { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import type { WebhookService } from './webhooks/webhook-service.js';

export interface ServiceDependencies {
  store: Store;
  config: ServerConfig;
  logger: Logger;
  secret: ServerSecret;
}

/**
 * The domain layer as the edge sees it: one instance of each service per server, shared by every request.
 * Built by the composition root (`app/compose-services.ts`).
 */
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
  /** OpenAI's Responses API (`/v1/responses`) over the gateway, with stored conversations (decision 0096). */
  responses: ResponsesService;
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
  /** App runs (`/v1/app/run*`, `/v1/app/debug`): graphs running in their rooms. */
  appRuns: AppRunService;
  /** The voice agents this instance runs (listen, think, speak in a session's room). */
  agents: AgentSessionHost;
  /** Partner avatar sessions (`/v1/partner_a/session/avatar_a*`) over the realtime sessions. */
  partnerAvatars: PartnerAvatarService;
  /**
   * Telephony's service half (`/twirp/livekit.SIP/*`, decision 0109): trunks and dispatch rules, the SIP endpoint's
   * directory (`sip.directory`), the start of what answers a call (`sip.answerCall`); the endpoint's `SipCalls`
   * arrive with `sip.useCalls`.
   */
  sip: SipService;
  /** The SIP endpoint taking and placing phone calls (`PALAVER_SIP_PORT`, embedded media only; decision 0107). */
  telephony: SipEndpoint | undefined;
  /** This server's Prometheus metrics (`GET /metrics`), in a registry of its own. */
  metrics: ServerMetrics;
}
