import { z } from 'zod';

const Port = z.coerce.number().int().min(0).max(65535);
/** A comma-separated list (environment) or an array (code) of model names. */
const ModelList = z
  .union([z.array(z.string()), z.string()])
  .transform((value) => (Array.isArray(value) ? value : value.split(',')).map((model) => model.trim()).filter((model) => model !== ''));
/** `first-last` (environment) or `[first, last]` (code): a UDP port range, first below last. */
const PortRange = z
  .union([z.tuple([Port, Port]), z.string().regex(/^\d+-\d+$/, 'must be first-last, e.g. 50000-60000')])
  .transform((value): [number, number] => (Array.isArray(value) ? value : (value.split('-').map(Number) as [number, number])))
  .refine(([first, last]) => first > 0 && first < last && last <= 65535, 'must be two ports, the first below the last');
const Flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .transform((value) => value === true || value === 'true' || value === '1' || value === 'yes');

/** The server's whole configuration; every field has a default that works on a bare machine. */
export const ServerConfig = z.object({
  port: Port.default(8080),
  host: z.string().min(1).default('127.0.0.1'),
  /** Public base URL (used in links the server hands out); derived from host/port when absent. */
  publicUrl: z.url().optional(),
  /** SQLite file path or `:memory:`; ignored when `databaseUrl` is set. */
  database: z.string().min(1).default(':memory:'),
  /** PostgreSQL connection string. */
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  /** The dev project's API key; generated at first start when absent. */
  apiKey: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Server secret for token signing and secret encryption (32+ chars); generated and stored when absent. */
  secretKey: z.string().min(32, 'must be at least 32 characters').optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: readable lines on a terminal, JSON lines otherwise; `json` or `pretty` to choose. */
  logFormat: z.enum(['auto', 'json', 'pretty']).default('auto'),
  /** Origins allowed by CORS: `*` or a comma-separated list. */
  corsOrigins: z.string().min(1).default('*'),
  /** Largest accepted JSON body. */
  maxBodyBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** Largest accepted upload (voice cloning). */
  maxUploadBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  livekit: z
    .object({
      url: z.string().optional(),
      apiKey: z.string().optional(),
      apiSecret: z.string().optional(),
      /** Embedded endpoint: a valid token's room is created when someone joins it (LiveKit's `room.auto_create`). */
      autoCreateRooms: Flag.default(true),
      /**
       * Embedded endpoint behind a 1:1 NAT, a port forward or a relay: the IPv4 address its WebRTC host candidates
       * announce instead of the interface's (LiveKit's `rtc.node_ip`; the ports stay the same).
       */
      nodeIp: z.ipv4().optional(),
      /** Embedded endpoint: bind the WebRTC UDP sockets to this local address only (default all). */
      rtcBindAddress: z.ipv4().optional(),
      /** Embedded endpoint: the UDP ports of its WebRTC sockets (LiveKit's `rtc.port_range_start/end`). */
      rtcPorts: PortRange.optional(),
    })
    .prefault({}),
  webhook: z
    .object({
      url: z.url().optional(),
      secret: z.string().min(8).optional(),
      allowPrivateAddresses: Flag.default(true),
      /** Run the webhook dispatcher in this process (false on API-only instances and in some tests). */
      dispatch: Flag.default(true),
    })
    .default({ allowPrivateAddresses: true, dispatch: true }),
  /** Phone calls: the SIP endpoint (UDP and TCP), off unless a port is set (5060 by convention). */
  sip: z
    .object({
      port: Port.optional(),
      /** The address written into SIP Contact/Via and SDP (what trunks reach); default the server's `host`. */
      advertisedAddress: z.string().min(1).optional(),
      /** Calls at once; more INVITEs are answered 503. */
      maxCalls: z.coerce.number().int().min(1).default(200),
      /** New INVITEs per second from one source address before 503 (a flood guard). */
      invitesPerSecond: z.coerce.number().min(1).default(20),
      /** Session timers (RFC 4028): the interval asked for or given, in seconds (a call nobody refreshes ends). */
      sessionExpiresSeconds: z.coerce.number().int().min(1).default(1800),
      /** The smallest Session-Expires accepted (our Min-SE; RFC 4028's floor is 90, smaller only for tests). */
      minSessionExpiresSeconds: z.coerce.number().int().min(1).default(90),
      /** SIP over TLS on this port too (5061 by convention); off unless set, and then `tlsCert` and `tlsKey` are required. */
      tlsPort: Port.optional(),
      /** Paths of the PEM certificate chain and private key the TLS listener presents. */
      tlsCert: z.string().min(1).optional(),
      tlsKey: z.string().min(1).optional(),
      /** Path of PEM certificates trusted for outbound TLS besides Node's CAs (a provider's private CA). */
      tlsCa: z.string().min(1).optional(),
    })
    .refine((sip) => sip.tlsPort === undefined || (sip.tlsCert !== undefined && sip.tlsKey !== undefined), {
      message: 'PALAVER_SIP_TLS_PORT needs PALAVER_SIP_TLS_CERT and PALAVER_SIP_TLS_KEY (paths of a PEM certificate and its key)',
      path: ['tlsPort'],
    })
    .prefault({}),
  /** Realtime sessions: how the instance hosting an agent proves it is alive. */
  realtime: z
    .object({
      /**
       * Seconds a session's lease lasts without renewal (renewed every third of it). When the hosting instance
       * stops renewing, another instance ends the session within this plus `leaseSeconds / 3`.
       */
      leaseSeconds: z.coerce.number().min(0.3).max(600).default(15),
      /** Seconds an app run's room may stay without anyone (but the agent) before the run ends. */
      appRunEmptySeconds: z.coerce.number().min(0.1).max(3600).default(20),
    })
    .default({ leaseSeconds: 15, appRunEmptySeconds: 20 }),
  /** App graphs. */
  graph: z
    .object({
      /**
       * MCP servers graphs may name in an MCP node's `mcp_server` (decision 0104): `{url, headers?}` for a
       * streamable-HTTP server (reached under the tool address policy), `{command, args?, env?, cwd?}` for a
       * program the platform starts and speaks to over stdio. Only this list can make the platform start a
       * program. Set in code (`createServer({ config })`), not from the environment.
       */
      mcpServers: z
        .record(
          z.string().min(1).max(100),
          z.union([
            z.object({ url: z.url(), headers: z.record(z.string(), z.string()).optional() }).strict(),
            z
              .object({
                command: z.string().min(1),
                args: z.array(z.string()).optional(),
                env: z.record(z.string(), z.string()).optional(),
                cwd: z.string().optional(),
              })
              .strict(),
          ]),
        )
        .default({}),
      /**
       * Where LocalLLM, LocalSTT and LocalViseme nodes find their servers, as the engine's `LOCAL_LLM_HOST`: this
       * base URL (scheme and host, e.g. `http://127.0.0.1`) with the node's `port`; only `localPorts` may be used.
       * Reached through the outbound guard allowing loopback and private networks (the operator chose the host),
       * never link-local or unroutable addresses.
       */
      localUrl: z.url().default('http://127.0.0.1'),
      /** The ports a graph's local nodes may use: the engine's defaults (7002 LLM, 7004 STT) and Ollama's 11434. */
      localPorts: z
        .preprocess(
          (value) =>
            typeof value === 'string'
              ? value
                  .split(',')
                  .map((part) => part.trim())
                  .filter((part) => part !== '')
              : value,
          z.array(Port.min(1)),
        )
        .default([7002, 7004, 11434]),
    })
    .default({ mcpServers: {}, localUrl: 'http://127.0.0.1', localPorts: [7002, 7004, 11434] }),
  /** The API reference at `/docs`. */
  docs: z
    .object({
      /**
       * Fill in the development project's API key in the reference's try-it console, for pages opened on this
       * machine (a loopback host). For development only (`pnpm start` sets it): the page then carries the key.
       */
      prefillDevKey: Flag.default(false),
    })
    .default({ prefillDevKey: false }),
  /** `GET /metrics` (Prometheus text format). */
  metrics: z
    .object({
      /** Serve it without credentials (a scraper inside a private network); otherwise it needs an API key. */
      public: Flag.default(false),
    })
    .default({ public: false }),
  /** Upstream LLMs offered as built-ins (the offline test model is always there). */
  llm: z
    .object({
      /** Enables one built-in LLM per `openaiModels` entry; never copied into an LLM's headers. */
      openaiApiKey: z.string().min(1).optional(),
      openaiBaseUrl: z.url().default('https://api.openai.com/v1'),
      openaiModels: ModelList.default(['gpt-4o-mini']),
      /** Base URL of an Ollama server; enables one built-in LLM per `ollamaModels` entry. */
      ollamaUrl: z.url().optional(),
      ollamaModels: ModelList.default([]),
      /**
       * Whether project LLMs' `post_url` may resolve to loopback addresses (SSRF guard; default true for
       * development, set false in production). Built-in LLMs are configured by the operator and exempt.
       */
      allowLoopback: Flag.default(true),
      /** Whether project LLMs' `post_url` may resolve to private, link-local or CGNAT addresses (default false). */
      allowPrivateNetworks: Flag.default(false),
      /** Longest wait for an upstream's first chunk before retrying (slow local models need more). */
      firstChunkTimeoutMs: z.coerce.number().int().min(10).default(30_000),
      /** Longest silence between an upstream's chunks once streaming; then the stream ends with an error. */
      idleTimeoutMs: z.coerce.number().int().min(10).default(60_000),
      /** How long the speech of a chat completion (`service_ext.voice.audio_url`) stays available. */
      audioTtlSeconds: z.coerce
        .number()
        .int()
        .min(10)
        .max(7 * 24 * 3600)
        .default(3600),
      /** How long a stored response of `POST /v1/responses` stays retrievable and continuable (decision 0096). */
      responsesRetentionDays: z.coerce.number().int().min(1).max(3650).default(30),
      /** Longest decoded audio of one `input_audio` part; longer parts are refused with 400. */
      maxInputAudioSeconds: z.coerce.number().int().min(1).max(3600).default(60),
      /**
       * The LLM id (a built-in, or an LLM of the context's project) that extracts facts for the contexts'
       * advanced memory graph; unset or `builtin-offline`: the offline rule-based extractor (decision 0065).
       */
      memoryModel: z.string().min(1).max(200).optional(),
    })
    .prefault({}),
  /**
   * Speech: embedded engines by default; OpenAI-compatible TTS/STT/moderation endpoints when their base URL
   * is set (mapped onto the engines' `SpeechConfig` by `speechConfigFrom`).
   */
  speech: z
    .object({
      /** OpenAI-compatible `/audio/speech` endpoint, served as the `openai` voice service. */
      ttsBaseUrl: z.url().optional(),
      ttsApiKey: z.string().min(1).optional(),
      ttsModel: z.string().min(1).default('gpt-4o-mini-tts'),
      /** OpenAI-compatible `/audio/transcriptions` endpoint (whisper.cpp server, faster-whisper, OpenAI). */
      sttBaseUrl: z.url().optional(),
      sttApiKey: z.string().min(1).optional(),
      sttModel: z.string().min(1).default('whisper-1'),
      /** `auto`: the endpoint above when set, else pocketsphinx when installed, else none. */
      sttProvider: z.enum(['auto', 'pocketsphinx', 'openai', 'none']).default('auto'),
      /** A hosted streaming STT service (`Speech.streamingStt`, decision 0090): Deepgram live or OpenAI realtime transcription. */
      streamingSttProvider: z.enum(['none', 'deepgram', 'openai-realtime']).default('none'),
      /** Its websocket URL (wss:// or ws://); the vendor's public endpoint when unset. */
      streamingSttUrl: z.url({ protocol: /^wss?$/ }).optional(),
      streamingSttApiKey: z.string().min(1).optional(),
      /** `nova-3` (Deepgram) or `gpt-4o-transcribe` (OpenAI) when unset. */
      streamingSttModel: z.string().min(1).optional(),
      /** Silence that ends an utterance (Deepgram `endpointing`, OpenAI `silence_duration_ms`). */
      streamingSttEndpointingMs: z.coerce.number().int().min(10).max(10_000).default(300),
      vad: z.enum(['auto', 'silero', 'energy']).default('auto'),
      /** OpenAI-compatible `/moderations` endpoint; the embedded word list moderates when absent. */
      moderationBaseUrl: z.url().optional(),
      moderationApiKey: z.string().min(1).optional(),
      moderationModel: z.string().min(1).default('omni-moderation-latest'),
      /** Largest voice sample `POST /v1/voice/clone` analyses (bigger files are refused with 400). */
      cloneMaxBytes: z.coerce
        .number()
        .int()
        .min(1024)
        .default(5 * 1024 * 1024),
      /** A synthesis job (one text segment) running longer than this is a hung worker. */
      jobTimeoutMs: z.coerce.number().int().min(100).default(15_000),
    })
    .prefault({}),
});
export type ServerConfig = z.output<typeof ServerConfig>;
export type ServerConfigInput = z.input<typeof ServerConfig>;

/** Environment variable -> config path. */
const environmentMap: Record<string, string> = {
  PORT: 'port',
  PALAVER_HOST: 'host',
  PALAVER_PUBLIC_URL: 'publicUrl',
  PALAVER_DATABASE: 'database',
  DATABASE_URL: 'databaseUrl',
  REDIS_URL: 'redisUrl',
  PALAVER_API_KEY: 'apiKey',
  PALAVER_SECRET_KEY: 'secretKey',
  PALAVER_LOG_LEVEL: 'logLevel',
  PALAVER_LOG_FORMAT: 'logFormat',
  PALAVER_CORS_ORIGINS: 'corsOrigins',
  PALAVER_MAX_BODY_BYTES: 'maxBodyBytes',
  PALAVER_MAX_UPLOAD_BYTES: 'maxUploadBytes',
  LIVEKIT_URL: 'livekit.url',
  LIVEKIT_API_KEY: 'livekit.apiKey',
  LIVEKIT_API_SECRET: 'livekit.apiSecret',
  PALAVER_MEDIA_AUTO_CREATE_ROOMS: 'livekit.autoCreateRooms',
  PALAVER_MEDIA_NODE_IP: 'livekit.nodeIp',
  PALAVER_MEDIA_RTC_BIND_ADDRESS: 'livekit.rtcBindAddress',
  PALAVER_MEDIA_RTC_PORTS: 'livekit.rtcPorts',
  PALAVER_WEBHOOK_URL: 'webhook.url',
  PALAVER_WEBHOOK_SECRET: 'webhook.secret',
  PALAVER_WEBHOOK_ALLOW_PRIVATE: 'webhook.allowPrivateAddresses',
  PALAVER_WEBHOOK_DISPATCH: 'webhook.dispatch',
  PALAVER_METRICS_PUBLIC: 'metrics.public',
  PALAVER_DOCS_PREFILL_KEY: 'docs.prefillDevKey',
  PALAVER_SIP_PORT: 'sip.port',
  PALAVER_SIP_ADDRESS: 'sip.advertisedAddress',
  PALAVER_SIP_MAX_CALLS: 'sip.maxCalls',
  PALAVER_SIP_INVITES_PER_SECOND: 'sip.invitesPerSecond',
  PALAVER_SIP_SESSION_EXPIRES: 'sip.sessionExpiresSeconds',
  PALAVER_SIP_MIN_SE: 'sip.minSessionExpiresSeconds',
  PALAVER_SIP_TLS_PORT: 'sip.tlsPort',
  PALAVER_SIP_TLS_CERT: 'sip.tlsCert',
  PALAVER_SIP_TLS_KEY: 'sip.tlsKey',
  PALAVER_SIP_TLS_CA: 'sip.tlsCa',
  PALAVER_SESSION_LEASE_SECONDS: 'realtime.leaseSeconds',
  PALAVER_APP_RUN_EMPTY_SECONDS: 'realtime.appRunEmptySeconds',
  OPENAI_API_KEY: 'llm.openaiApiKey',
  OPENAI_BASE_URL: 'llm.openaiBaseUrl',
  PALAVER_OPENAI_MODELS: 'llm.openaiModels',
  PALAVER_OLLAMA_URL: 'llm.ollamaUrl',
  PALAVER_OLLAMA_MODELS: 'llm.ollamaModels',
  PALAVER_LLM_ALLOW_LOOPBACK: 'llm.allowLoopback',
  PALAVER_GRAPH_LOCAL_URL: 'graph.localUrl',
  PALAVER_GRAPH_LOCAL_PORTS: 'graph.localPorts',
  PALAVER_LLM_ALLOW_PRIVATE: 'llm.allowPrivateNetworks',
  PALAVER_LLM_FIRST_CHUNK_TIMEOUT_MS: 'llm.firstChunkTimeoutMs',
  PALAVER_LLM_IDLE_TIMEOUT_MS: 'llm.idleTimeoutMs',
  PALAVER_CHAT_AUDIO_TTL_SECONDS: 'llm.audioTtlSeconds',
  PALAVER_CHAT_MAX_INPUT_AUDIO_SECONDS: 'llm.maxInputAudioSeconds',
  PALAVER_RESPONSES_RETENTION_DAYS: 'llm.responsesRetentionDays',
  PALAVER_MEMORY_LLM: 'llm.memoryModel',
  PALAVER_SPEECH_TTS_URL: 'speech.ttsBaseUrl',
  PALAVER_SPEECH_TTS_API_KEY: 'speech.ttsApiKey',
  PALAVER_SPEECH_TTS_MODEL: 'speech.ttsModel',
  PALAVER_SPEECH_STT_URL: 'speech.sttBaseUrl',
  PALAVER_SPEECH_STT_API_KEY: 'speech.sttApiKey',
  PALAVER_SPEECH_STT_MODEL: 'speech.sttModel',
  PALAVER_SPEECH_STT_PROVIDER: 'speech.sttProvider',
  PALAVER_SPEECH_STREAMING_STT_PROVIDER: 'speech.streamingSttProvider',
  PALAVER_SPEECH_STREAMING_STT_URL: 'speech.streamingSttUrl',
  PALAVER_SPEECH_STREAMING_STT_API_KEY: 'speech.streamingSttApiKey',
  PALAVER_SPEECH_STREAMING_STT_MODEL: 'speech.streamingSttModel',
  PALAVER_SPEECH_STREAMING_STT_ENDPOINTING_MS: 'speech.streamingSttEndpointingMs',
  PALAVER_SPEECH_VAD: 'speech.vad',
  PALAVER_SPEECH_MODERATION_URL: 'speech.moderationBaseUrl',
  PALAVER_SPEECH_MODERATION_API_KEY: 'speech.moderationApiKey',
  PALAVER_SPEECH_MODERATION_MODEL: 'speech.moderationModel',
  PALAVER_SPEECH_CLONE_MAX_BYTES: 'speech.cloneMaxBytes',
  PALAVER_SPEECH_JOB_TIMEOUT_MS: 'speech.jobTimeoutMs',
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}

function deepMerge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const result = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) continue;
    const current = result[key];
    result[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object'
        ? deepMerge(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return result;
}

/**
 * Reads the configuration from environment variables, then applies explicit overrides.
 * A bad value throws a {@link ConfigError} naming the variable.
 */
export function loadConfig(environment: Record<string, string | undefined> = process.env, overrides: ServerConfigInput = {}): ServerConfig {
  const fromEnvironment: Record<string, unknown> = {};
  for (const [variable, path] of Object.entries(environmentMap)) {
    const value = environment[variable];
    if (value !== undefined && value !== '') setPath(fromEnvironment, path, value);
  }
  const merged = deepMerge(fromEnvironment, overrides);
  const parsed = ServerConfig.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const path = issue.path.join('.');
      const variable = Object.entries(environmentMap).find(([, target]) => target === path)?.[0];
      return `${variable ?? path}${variable ? ` (${path})` : ''}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
