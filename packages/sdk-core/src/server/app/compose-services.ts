import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { createVoiceAgentHost } from '../agent/voice-agent-host.js';
import { createRoutingAgentHost } from '../agent/worker-agent-host.js';
import { AnalyticsService } from '../domain/analytics/analytics-service.js';
import { GraphChecker } from '../domain/apps/graph-checker.js';
import { migrateStoredGraphs } from '../domain/apps/graph-format-migration.js';
import { AppRunService } from '../domain/apps/app-run-service.js';
import { SessionRoom } from '../domain/realtime/session-room.js';
import { AppRunHost } from '../graph/app-run-host.js';
import { AppService } from '../domain/apps/app-service.js';
import { AppTemplateService } from '../domain/apps/app-template-service.js';
import { SubGraphService } from '../domain/apps/subgraph-service.js';
import { ApiKeyService } from '../domain/auth/api-keys.js';
import { ChangeNotices } from '../domain/change-notices.js';
import { ProjectService } from '../domain/auth/projects.js';
import type { ServerSecret } from '../domain/auth/server-secret.js';
import { UsageTokenService } from '../domain/auth/usage-tokens.js';
import { AdvancedMemory } from '../domain/contexts/memory/advanced-memory.js';
import { createMemoryExtractor } from '../domain/contexts/memory/create-memory-extractor.js';
import { ContextService } from '../domain/contexts/context-service.js';
import { ResponseRepository } from '../domain/responses/response-repository.js';
import { ResponsesService } from '../domain/responses/responses-service.js';
import { CreditService } from '../domain/credits/credit-service.js';
import { LlmService } from '../domain/llms/llm-service.js';
import { PersonaService } from '../domain/personas/persona-service.js';
import { PartnerAvatarService } from '../domain/realtime/partner-avatar-service.js';
import { RealtimeSessionService } from '../domain/realtime/realtime-session-service.js';
import { RecordingStore } from '../domain/recordings/recording-store.js';
import { sendRoomData } from '../domain/realtime/room-data.js';
import { ERROR_TOPIC } from '../../contract/wire.js';
import { SessionLeases } from '../domain/realtime/session-leases.js';
import { SipService } from '../domain/sip/sip-service.js';
import type { SipEndpoint, SipTlsOptions } from '../engines/telephony/index.js';
import type { AgentTransport } from '../engines/media/index.js';
import { DEV_PROJECT_ID } from '../domain/auth/projects.js';
import { ScenarioService } from '../domain/scenarios/scenario-service.js';
import { SecretService } from '../domain/secrets/secret-service.js';
import type { Services } from '../domain/services.js';
import { ToolService } from '../domain/tools/tool-service.js';
import { UsageLimitService } from '../domain/usage/usage-limits.js';
import { UsageService } from '../domain/usage/usage-service.js';
import { usageServiceMeter } from '../domain/usage/usage-service-meter.js';
import { usageConversationMeter } from '../domain/usage/conversation-meter.js';
import { ChatSpeechOutput } from '../domain/voices/chat-speech-output.js';
import { moderatorFrom, speechConfigFrom } from '../domain/voices/platform-speech.js';
import { VoiceCloningService } from '../domain/voices/voice-cloning-service.js';
import { VoiceService } from '../domain/voices/voice-service.js';
import { VoiceSynthesisService } from '../domain/voices/voice-synthesis-service.js';
import { WebhookDispatcher } from '../domain/webhooks/webhook-dispatcher.js';
import { WebhookService } from '../domain/webhooks/webhook-service.js';
import { createBus } from '../engines/bus/index.js';
import { ChatAudioStore, type ChatGateway, createChatGateway, createSpeechTranscriber } from '../engines/llm/index.js';
import { createMediaService } from '../engines/media/index.js';
import { createSpeech, type Speech } from '../engines/speech/index.js';
import type { ServerConfig } from '../kernel/config.js';
import { ServerMetrics } from '../kernel/telemetry/server-metrics.js';
import type { Store } from '../store/database.js';
import { newId } from '../store/ids.js';

export interface ServiceDependencies {
  store: Store;
  config: ServerConfig;
  logger: Logger;
  secret: ServerSecret;
}

/**
 * The composition root: builds every engine, service and host of one server from its configuration, in
 * dependency order. Nothing else constructs a service; the edge receives the finished {@link Services}.
 *
 * @example
 * const services = await createServices({ store, config, logger, secret });
 */
export async function createServices(dependencies: ServiceDependencies): Promise<Services> {
  const { store, config, logger, secret } = dependencies;
  const settingsKey = secret.derive('settings-encryption');
  const addressPolicy = { allowLoopback: config.llm.allowLoopback, allowPrivateNetworks: config.llm.allowPrivateNetworks };

  // Metrics first: engines and hosts report into them through callbacks.
  const metrics = new ServerMetrics(logger);

  // Engines.
  const bus = await createBus(config.redisUrl, logger);
  // Caches of other instances drop what this one changes (verified keys, resolved LLMs and secrets).
  const notices = new ChangeNotices(bus, logger);
  const speech = createSpeech(speechConfigFrom(config.speech), {
    workerRestarted: ({ name }) => metrics.speechWorkerRestarted(name),
    streamingSttMetered: ({ provider, audioSeconds }) => metrics.streamingSttAudio(provider, audioSeconds),
  });
  const media = await createMediaService(config, logger);
  const chatAudio = new ChatAudioStore(store, { ttlSeconds: config.llm.audioTtlSeconds });

  // Accounts, ledgers and webhooks.
  const apiKeys = new ApiKeyService(store, notices);
  const usageLimits = new UsageLimitService(store);
  // Endpoint secrets are sealed with the settings key; the associated data binds each to its endpoint id.
  const webhooks = new WebhookService(store, settingsKey, { allowPrivateAddresses: config.webhook.allowPrivateAddresses });
  // This server instance: it holds leases (sessions, app runs, its own) and its usage reservations name it.
  const instance = newId('instance');
  const leaseMs = config.realtime.leaseSeconds * 1000;
  const leaseTiming = { renewIntervalMs: leaseMs / 3, reapIntervalMs: leaseMs / 3 };
  const usage = new UsageService(store, usageLimits, webhooks, {
    owners: { leases: new SessionLeases(store, { instance, ttlMs: leaseMs, kind: 'instance' }), timing: leaseTiming, logger },
  });
  const secrets = new SecretService(store, secret.derive('secret-encryption'), notices);

  // Catalogues, seeded once.
  const llms = new LlmService(store, secrets, config.llm, notices);
  notices.on('api-keys', () => apiKeys.forgetVerified());
  notices.on('secrets', () => secrets.noteChange());
  notices.on('llms', () => llms.noteChange());
  await notices.start();
  await llms.seedBuiltIns();
  const voices = new VoiceService(store);
  await voices.seedCatalog();
  const subgraphs = new SubGraphService(store);
  const apps = new AppService(store, new GraphChecker(subgraphs));
  const appTemplates = new AppTemplateService(store, apps);
  await apps.seedExamples();
  await appTemplates.seed();
  await subgraphs.seed();
  await migrateStoredGraphs(store, logger);

  // Speech and the LLM gateway.
  const voiceSynthesis = new VoiceSynthesisService({ voices, speech, usage, moderator: moderatorFrom(config.speech) });
  const chat: ChatGateway = createChatGateway({
    config,
    logger,
    llms,
    usageMeter: usageServiceMeter(usage, logger),
    transcriber: createSpeechTranscriber(speech, { maxSeconds: config.llm.maxInputAudioSeconds }),
    speechOutput: new ChatSpeechOutput({ synthesis: voiceSynthesis, audioStore: chatAudio }),
    moderate: (text, signal) => voiceSynthesis.moderate(text, signal),
  });
  const contexts = new ContextService(
    store,
    new AdvancedMemory(store, { usage, extractor: createMemoryExtractor({ model: config.llm.memoryModel, chat, logger }) }),
  );

  // Realtime: the agents this instance hosts, the sessions, and partner sessions over them.
  const conversation = usageConversationMeter(usage);
  const recordings = new RecordingStore(store);
  const agents = createRoutingAgentHost({
    builtin: createVoiceAgentHost({
      transport: media.transport,
      speech,
      chat,
      voices: voiceSynthesis,
      conversation,
      toolAddressPolicy: addressPolicy,
      logger: logger.child({ component: 'agent' }),
      onTurnMetrics: (turn) => metrics.turnMeasured(turn),
      recordings,
    }),
    transport: media.transport,
    dispatcher: media.dispatcher,
    conversation,
    logger: logger.child({ component: 'worker-agent' }),
    recordings,
  });
  const personas = new PersonaService(store);
  const scenarios = new ScenarioService(store);
  const tools = new ToolService(store, config.llm);
  const realtime = new RealtimeSessionService({
    store,
    logger,
    bus,
    webhooks,
    usage,
    llms,
    voices,
    personas,
    scenarios,
    tools,
    contexts,
    media,
    agents,
    leases: {
      leases: new SessionLeases(store, { instance, ttlMs: leaseMs }),
      timing: leaseTiming,
    },
    tellRoom: (sessionId, message) => sendRoomData(media, sessionId, ERROR_TOPIC, JSON.stringify({ message })),
    recordings,
  });
  // App runs: graphs run as the agent of their rooms, on the engines the voice agent uses.
  const appRuns = new AppRunService({
    store,
    apps,
    checker: new GraphChecker(subgraphs),
    host: new AppRunHost({
      transport: media.transport,
      engines: {
        chat,
        speech,
        voices: voiceSynthesis,
        tools: { find: (principal, references) => tools.findByReferences(principal, references) },
        toolAddressPolicy: addressPolicy,
        mcpServers: config.graph.mcpServers,
        localServers: { url: config.graph.localUrl, ports: config.graph.localPorts },
        onTurnMetrics: (turn) => metrics.turnMeasured(turn),
      },
      logger: logger.child({ component: 'app-run' }),
      tuning: { emptyGraceMs: config.realtime.appRunEmptySeconds * 1000 },
      recordings,
    }),
    room: new SessionRoom(media),
    usage,
    logger,
    bus,
    leases: {
      leases: new SessionLeases(store, { instance, ttlMs: leaseMs, kind: 'app_run' }),
      timing: leaseTiming,
    },
    tellRoom: (runId, message) => sendRoomData(media, runId, ERROR_TOPIC, JSON.stringify({ message })),
    dispatcher: media.dispatcher,
    recordings,
  });
  const partnerAvatars = new PartnerAvatarService({ store, config, voices, media, realtime });
  // Telephony's service half: LiveKit's SIP API on this database (or forwarded to a LiveKit deployment's SIP service).
  const endpoint = media.endpoint;
  const sip = new SipService({
    store,
    logger: logger.child({ component: 'sip' }),
    mode: endpoint
      ? {
          kind: 'local',
          verify: (token) => endpoint.verifier.verify(token),
          project: DEV_PROJECT_ID,
          apiKeyProject: async (key) => {
            const verified = await apiKeys.verify(key);
            return verified && { project: verified.project, disabled: verified.projectDisabled };
          },
        }
      : { kind: 'livekit', url: config.livekit.url!, apiKey: config.livekit.apiKey, apiSecret: config.livekit.apiSecret, project: DEV_PROJECT_ID },
    realtime,
    appRuns,
    dispatcher: media.dispatcher,
    bus,
  });
  // Telephony's endpoint half: phone calls on PALAVER_SIP_PORT into the embedded endpoint's rooms (decision 0107).
  const telephony = endpoint && config.sip.port !== undefined ? await startSipEndpoint(config, media.transport, sip, speech, logger) : undefined;
  sip.useCalls(telephony);
  metrics.readFrom({
    liveAgentSessions: () => agents.liveSessions(),
    mediaRooms:
      endpoint &&
      (() => {
        const rooms = endpoint.rooms.list();
        return { rooms: rooms.length, participants: rooms.reduce((sum, room) => sum + room.list().length, 0) };
      }),
    webhookOutboxDepth: () => webhooks.outboxDepth(),
  });

  return {
    store,
    config,
    logger,
    bus,
    apiKeys,
    projects: new ProjectService(store, apiKeys, settingsKey),
    usageTokens: new UsageTokenService(store, secret.derive('usage-token')),
    usageLimits,
    usage,
    credits: new CreditService(store),
    webhooks,
    webhookDispatcher: new WebhookDispatcher(store, webhooks, {
      allowPrivateAddresses: config.webhook.allowPrivateAddresses,
      logger,
      onSettled: (result) => metrics.webhookDeliverySettled(result),
    }),
    personas,
    scenarios,
    llms,
    chat,
    chatAudio,
    responses: new ResponsesService({ chat, repository: new ResponseRepository(store, { retentionDays: config.llm.responsesRetentionDays }) }),
    tools,
    secrets,
    contexts,
    analytics: new AnalyticsService(store),
    voices,
    apps,
    appTemplates,
    subgraphs,
    media,
    speech,
    voiceSynthesis,
    voiceCloning: new VoiceCloningService(voices, { maxBytes: config.speech.cloneMaxBytes }),
    agents,
    realtime,
    appRuns,
    partnerAvatars,
    sip,
    telephony,
    metrics,
  };
}

/** How long a shutdown lets webhook deliveries in flight (and the events of the shutdown itself) go out. */
const WEBHOOK_DRAIN_MS = 5000;

/** Releases what services hold (timers, workers, connections): the graceful part of a shutdown. */
export async function closeServices(services: Services): Promise<void> {
  // Sessions hosted here end first (recorded with their events, humans told), while the store and the outbox
  // are still open; then the agents that are left stop.
  // Phone calls hang up first (BYE), so their sessions end as the callers leave.
  await services.telephony?.close();
  await services.sip.close();
  await services.realtime.close();
  await services.appRuns.close();
  await services.agents.close();
  // Every stream and agent stopped: this instance's lease and any usage reservation it still holds are given back.
  await services.usage.close();
  await services.bus.close();
  // Deliveries in flight finish, and the events just written (sessions ended) go out, within the drain time.
  await services.webhookDispatcher.stop({ drainMs: WEBHOOK_DRAIN_MS });
  await services.media.close();
  await services.speech.close();
  services.metrics.close();
}

/** The TLS listener's certificate and key (and extra CAs) read from the configured paths; a missing file says which. */
async function sipTlsOptions(sip: ServerConfig['sip']): Promise<SipTlsOptions> {
  const read = async (path: string, setting: string) => {
    try {
      return await readFile(path);
    } catch (error) {
      throw new Error(`${setting} (${path}) could not be read: ${(error as Error).message}`);
    }
  };
  return {
    port: sip.tlsPort ?? 5061,
    cert: await read(sip.tlsCert!, 'PALAVER_SIP_TLS_CERT'),
    key: await read(sip.tlsKey!, 'PALAVER_SIP_TLS_KEY'),
    ...(sip.tlsCa ? { ca: await read(sip.tlsCa, 'PALAVER_SIP_TLS_CA') } : {}),
  };
}

/** Starts the SIP endpoint on the configured port (UDP and TCP, and TLS when set), answering with the SIP service's directory. */
async function startSipEndpoint(config: ServerConfig, transport: AgentTransport, sip: SipService, speech: Speech, logger: Logger): Promise<SipEndpoint> {
  // Loaded only when configured: RTP brings werift and the codecs (lazy-start.test.ts).
  const { SipEndpoint, speechPrompts } = await import('../engines/telephony/index.js');
  const telephony = new SipEndpoint({
    host: config.host,
    port: config.sip.port ?? 5060,
    ...(config.sip.advertisedAddress ? { advertisedAddress: config.sip.advertisedAddress } : {}),
    maxCalls: config.sip.maxCalls,
    invitesPerSecond: config.sip.invitesPerSecond,
    sessionTimer: { expiresSeconds: config.sip.sessionExpiresSeconds, minSeconds: config.sip.minSessionExpiresSeconds },
    // A rule's PIN is asked for out loud, in the platform's offline voice.
    prompts: speechPrompts(speech.tts),
    ...(config.sip.tlsPort !== undefined ? { tls: await sipTlsOptions(config.sip) } : {}),
    directory: sip.directory,
    // The call's host on the bus is released: a transfer asked on another instance no longer comes here.
    onCallEnded: (call) => void sip.callReleased(call),
    transport,
    logger: logger.child({ component: 'sip-endpoint' }),
  });
  await telephony.start();
  return telephony;
}
