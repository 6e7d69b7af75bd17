import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TurnMetrics } from '../ports/turn-metrics.js';

/** Every metric name starts with it (process metrics too), so the platform's series are easy to select. */
export const METRIC_PREFIX = 'palaver_';

/** The `route` label of a request no route answered (unknown paths, wrong methods, CORS preflights). */
export const UNMATCHED_ROUTE = 'unmatched';

/** How a webhook delivery attempt ended: delivered, scheduled again, or given up (410 Gone, retries exhausted). */
export type WebhookDeliveryResult = 'delivered' | 'retried' | 'failed';

/** What the gauges read when Prometheus scrapes; the composition root provides it once the services exist. */
export interface ScrapeTimeSources {
  /** Realtime sessions whose voice agent runs on this instance now. */
  liveAgentSessions(): number;
  /** Rooms and participants of the embedded media endpoint; left out with a LiveKit deployment (no media gauges). */
  mediaRooms?: (() => { rooms: number; participants: number }) | undefined;
  /** Webhook deliveries not yet delivered nor given up, in the whole database (all instances share it). */
  webhookOutboxDepth(): Promise<number>;
}

/** The HTTP methods kept as label values; anything else counts as `other`, so a client cannot mint series. */
const KNOWN_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** Request durations: from a few milliseconds (cached key checks) to slow uploads and non-streamed LLM answers. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Turn stages: a conversational budget lives between 100 ms and a few seconds. */
const TURN_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];

const seconds = (milliseconds: number) => milliseconds / 1000;

/**
 * The Prometheus metrics of one server: every metric the platform exports is defined here, in a registry of
 * its own (never prom-client's global one, so servers sharing a process, as tests do, never mix their
 * series). Engines and the agent never see this class: they expose callbacks, and the composition root
 * (`app/compose-services.ts`) routes them here. `GET /metrics` answers {@link ServerMetrics.scrape}.
 *
 * @example
 * const metrics = new ServerMetrics(logger);
 * metrics.readFrom({ liveAgentSessions: () => agents.liveSessions(), webhookOutboxDepth: () => webhooks.outboxDepth() });
 * metrics.webhookDeliverySettled('delivered');
 * const text = await metrics.scrape();
 */
export class ServerMetrics {
  /** The server's own registry (tests read single metrics from it). */
  readonly registry = new Registry();
  private sources: ScrapeTimeSources | undefined;
  private readonly requestDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly webhookDeliveries: Counter<'result'>;
  private readonly turns: Counter<'source' | 'interrupted'>;
  private readonly turnResponse: Histogram<'source'>;
  private readonly turnSttFinal: Histogram<'source'>;
  private readonly turnLlmFirstToken: Histogram<'source'>;
  private readonly turnTtsFirstAudio: Histogram<'source'>;
  private readonly workerRestarts: Counter<'worker'>;
  private readonly streamingSttSeconds: Counter<'provider'>;

  constructor(private readonly logger: Logger) {
    const registers = [this.registry];
    this.requestDuration = new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by method, route template and status: time until the response head (an event stream keeps going after it).',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: `${METRIC_PREFIX}webhook_deliveries_total`,
      help: 'Webhook delivery attempts settled by this instance, by result: delivered, retried (scheduled again) or failed (given up).',
      labelNames: ['result'],
      registers,
    });
    this.turns = new Counter({
      name: `${METRIC_PREFIX}agent_turns_total`,
      help: 'Voice agent turns run on this instance, by what started them (voice, text, scripted) and whether the human interrupted them.',
      labelNames: ['source', 'interrupted'],
      registers,
    });
    const turnHistogram = (name: string, help: string) =>
      new Histogram({ name: `${METRIC_PREFIX}${name}`, help, labelNames: ['source'], buckets: TURN_BUCKETS, registers });
    this.turnResponse = turnHistogram(
      'agent_turn_response_seconds',
      "From the end of the human's speech (or typed message) to the agent's first audio (or text, without speech).",
    );
    this.turnSttFinal = turnHistogram('agent_turn_stt_final_seconds', 'From the end-of-speech decision to the final transcript.');
    this.turnLlmFirstToken = turnHistogram('agent_turn_llm_first_token_seconds', "From the agent's LLM request to the first text token.");
    this.turnTtsFirstAudio = turnHistogram('agent_turn_tts_first_audio_seconds', 'From the first text segment being ready to its first synthesized audio.');
    this.workerRestarts = new Counter({
      name: `${METRIC_PREFIX}speech_worker_restarts_total`,
      help: 'Speech engine workers restarted by their supervisor after a crash or a hang, by engine.',
      labelNames: ['worker'],
      registers,
    });
    this.streamingSttSeconds = new Counter({
      name: `${METRIC_PREFIX}speech_streaming_stt_audio_seconds_total`,
      help: 'Seconds of audio sent to hosted streaming STT services (what the vendor bills), by provider.',
      labelNames: ['provider'],
      registers,
    });
    this.scrapeTimeGauge('realtime_agent_sessions', 'Realtime sessions whose voice agent runs on this instance.', (sources) => sources.liveAgentSessions());
    this.scrapeTimeGauge(
      'media_rooms',
      "Rooms of this instance's embedded media endpoint (absent with a LiveKit deployment).",
      (sources) => sources.mediaRooms?.().rooms,
    );
    this.scrapeTimeGauge(
      'media_participants',
      "Participants (humans and agents) in the rooms of this instance's embedded media endpoint (absent with a LiveKit deployment).",
      (sources) => sources.mediaRooms?.().participants,
    );
    this.scrapeTimeGauge(
      'webhook_outbox_depth',
      'Webhook deliveries waiting in the outbox (pending or being delivered), in the whole database: every instance reports the same value.',
      (sources) => sources.webhookOutboxDepth(),
    );
    collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
  }

  /** Gives the scrape-time gauges what they read; until then they are NaN. Without a media endpoint its gauges go. */
  readFrom(sources: ScrapeTimeSources): void {
    this.sources = sources;
    if (!sources.mediaRooms) {
      this.registry.removeSingleMetric(`${METRIC_PREFIX}media_rooms`);
      this.registry.removeSingleMetric(`${METRIC_PREFIX}media_participants`);
    }
  }

  /** One answered HTTP request; `route` is the template (`/v1/persona/{persona_id}`) or {@link UNMATCHED_ROUTE}. */
  requestAnswered(request: { method: string; route: string; status: number }, durationSeconds: number): void {
    const method = KNOWN_METHODS.has(request.method) ? request.method : 'other';
    this.requestDuration.observe({ method, route: request.route, status: String(request.status) }, durationSeconds);
  }

  /** A webhook delivery attempt whose outcome this instance recorded. */
  webhookDeliverySettled(result: WebhookDeliveryResult): void {
    this.webhookDeliveries.inc({ result });
  }

  /** One voice agent turn: each stage it went through is observed, the others are left out. */
  turnMeasured(turn: TurnMetrics): void {
    const labels = { source: turn.source };
    this.turns.inc({ ...labels, interrupted: String(turn.interrupted) });
    if (turn.responseMs !== undefined) this.turnResponse.observe(labels, seconds(turn.responseMs));
    if (turn.sttFinalMs !== undefined) this.turnSttFinal.observe(labels, seconds(turn.sttFinalMs));
    if (turn.llmFirstTokenMs !== undefined) this.turnLlmFirstToken.observe(labels, seconds(turn.llmFirstTokenMs));
    if (turn.ttsFirstAudioMs !== undefined) this.turnTtsFirstAudio.observe(labels, seconds(turn.ttsFirstAudioMs));
  }

  /** A speech worker (`flite`, `espeak-ng`, `pocketsphinx`) was restarted by its supervisor. */
  speechWorkerRestarted(worker: string): void {
    this.workerRestarts.inc({ worker });
  }

  /** A hosted streaming STT stream (`deepgram`, `openai-realtime`) ended, having sent `seconds` of audio. */
  streamingSttAudio(provider: string, seconds: number): void {
    if (seconds > 0) this.streamingSttSeconds.inc({ provider }, seconds);
  }

  /** The Prometheus text exposition of every metric, gauges computed now. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  /** The content type of {@link ServerMetrics.scrape}'s answer. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * A gauge computed when Prometheus scrapes. It is NaN (unknown, never a misleading 0) without sources or
   * when `read` fails; the failure is logged and the scrape answers the other metrics.
   */
  private scrapeTimeGauge(name: string, help: string, read: (sources: ScrapeTimeSources) => number | undefined | Promise<number>): void {
    const sources = () => this.sources;
    const logger = this.logger;
    new Gauge({
      name: `${METRIC_PREFIX}${name}`,
      help,
      registers: [this.registry],
      async collect() {
        const current = sources();
        let value: number | undefined;
        try {
          value = current && (await read(current));
        } catch (error) {
          logger.warn({ err: error, metric: name }, 'a metric could not be read for /metrics');
        }
        this.set(value ?? Number.NaN);
      },
    });
  }

  /**
   * Forgets the sources and empties the registry. prom-client's process collectors keep a garbage-collection
   * observer per registry for the life of the process; emptied, it no longer holds the services.
   */
  close(): void {
    this.sources = undefined;
    this.registry.clear();
  }
}
