import { sql } from 'kysely';
import type { Logger } from 'pino';
import { allowSettingOf, OutboundRefusedError, outboundRequest, type OutboundPolicy, type OutboundResponse } from '../../kernel/outbound/index.js';
import type { WebhookDeliveryResult } from '../../kernel/telemetry/server-metrics.js';
import type { Store } from '../../store/database.js';
import { claimDueDeliveries } from '../../store/dialect/index.js';
import { newId } from '../../store/ids.js';
import type { WebhookDeliveryRow } from '../../store/tables.js';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry-schedule.js';
import type { WebhookService } from './webhook-service.js';
import { signatureHeaders } from './webhook-signature.js';

export interface WebhookDispatcherOptions {
  /** How often to look for due deliveries when idle (default 250 ms). */
  pollIntervalMs?: number;
  /** Deliveries claimed and sent concurrently per round (default 16). */
  batchSize?: number;
  /** Per-attempt timeout (default 15 s). */
  timeoutMs?: number;
  /**
   * How long a claim lasts; a dispatcher that dies mid-delivery leaves the row to be claimed again after
   * this. Must exceed `timeoutMs` so a live dispatcher always finishes first (default timeout + 15 s).
   */
  leaseMs?: number;
  retry?: RetryPolicy;
  /** Clock in epoch milliseconds (tests inject one). */
  now?: () => number;
  random?: () => number;
  /** Whether endpoints may be at loopback and private-network addresses (default true: development). */
  allowPrivateAddresses?: boolean;
  /** Where endpoints may be, instead of `allowPrivateAddresses` (tests pass an `OutboundGuard`). */
  addressPolicy?: OutboundPolicy;
  logger?: Logger;
  /** Told of each attempt whose outcome this dispatcher recorded (the server counts them in its metrics). */
  onSettled?: (result: WebhookDeliveryResult) => void;
}

type Outcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; status: number | null; error: string | null; retryAfterMs: number | undefined }
  | { kind: 'gone'; status: number };

const USER_AGENT = 'Palaver-Webhooks/1.0';
const MAX_ERROR_LENGTH = 500;

/**
 * Delivers the outbox: claims due deliveries (one `UPDATE ... RETURNING` whose subquery takes
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL, so several dispatchers never claim the same row; SQLite runs the
 * statement atomically), POSTs each with its signatures, and records the outcome only while still holding
 * the claim. Claims carry a lease, so a dispatcher killed mid-delivery loses nothing: the row becomes due
 * again when the lease runs out (at-least-once, same `webhook-id`).
 *
 * @example
 * const dispatcher = new WebhookDispatcher(store, services.webhooks, { logger });
 * dispatcher.start();
 * await dispatcher.stop();
 */
export class WebhookDispatcher {
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly retry: RetryPolicy;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly addressPolicy: OutboundPolicy;
  private readonly logger: Logger | undefined;
  private readonly onSettled: ((result: WebhookDeliveryResult) => void) | undefined;
  private readonly owner = newId('dispatcher');
  private stopping: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Set by a draining stop: the loop ends once a round finds nothing due. */
  private draining = false;

  constructor(
    private readonly store: Store,
    private readonly webhooks: WebhookService,
    options: WebhookDispatcherOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.batchSize = options.batchSize ?? 16;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.leaseMs = Math.max(options.leaseMs ?? this.timeoutMs + 15_000, this.timeoutMs + 1_000);
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    const allowPrivate = options.allowPrivateAddresses ?? true;
    this.addressPolicy = options.addressPolicy ?? { allowLoopback: allowPrivate, allowPrivateNetworks: allowPrivate };
    this.logger = options.logger;
    this.onSettled = options.onSettled;
  }

  /** Starts the background loop (idempotent). */
  start(): void {
    if (this.loop) return;
    const stopping = new AbortController();
    this.stopping = stopping;
    this.loop = this.run(stopping.signal);
  }

  /**
   * Stops the loop. With `drainMs`, deliveries in flight finish and what is due now is delivered, for at most
   * that long (a graceful shutdown); then, or without it, deliveries in flight are aborted and handed back as
   * due, without using an attempt.
   */
  async stop(options: { drainMs?: number } = {}): Promise<void> {
    const loop = this.loop;
    if (!loop) return;
    if ((options.drainMs ?? 0) > 0) {
      this.draining = true;
      this.wake?.();
      let timer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        loop.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), options.drainMs))),
      ]);
      clearTimeout(timer);
      if (!drained) this.logger?.warn({ drainMs: options.drainMs }, 'webhook deliveries still in flight at shutdown are handed back as due');
    }
    this.stopping?.abort();
    this.wake?.();
    await loop;
    this.loop = undefined;
    this.stopping = undefined;
    this.draining = false;
  }

  /** Looks for due deliveries now instead of at the next poll. */
  poke(): void {
    this.wake?.();
  }

  /** One round: claims due deliveries and sends them. Returns how many were claimed. */
  async runOnce(signal: AbortSignal = new AbortController().signal): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((row) => this.deliver(row, signal)));
    return claimed.length;
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let claimed = 0;
      try {
        claimed = await this.runOnce(signal);
      } catch (error) {
        this.logger?.error({ err: error }, 'webhook dispatcher round failed');
      }
      // Draining (shutdown): nothing due is left, so the loop ends instead of waiting for more.
      if (claimed === 0 && this.draining) break;
      if (claimed === 0 && !signal.aborted) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollIntervalMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  private iso(milliseconds: number): string {
    return new Date(milliseconds).toISOString();
  }

  private async claim(): Promise<Array<WebhookDeliveryRow & { lease_owner: string }>> {
    const now = this.now();
    return claimDueDeliveries(this.store, {
      now: this.iso(now),
      leaseOwner: `${this.owner}:${newId('claim')}`,
      leaseUntil: this.iso(now + this.leaseMs),
      limit: this.batchSize,
    });
  }

  private async deliver(row: WebhookDeliveryRow & { lease_owner: string }, stopSignal: AbortSignal): Promise<void> {
    const attempt = Number(row.attempts);
    const startedAt = this.now();
    const started = performance.now();
    let outcome: Outcome;
    try {
      outcome = await this.send(row, stopSignal);
    } catch (error) {
      if (stopSignal.aborted) {
        await this.handBack(row);
        return;
      }
      outcome = { kind: 'retry', status: null, error: describe(error), retryAfterMs: undefined };
    }
    const duration = Math.round(performance.now() - started);
    try {
      await this.settle(row, attempt, outcome, startedAt, duration);
    } catch (error) {
      // The lease runs out and the delivery is retried: at-least-once rather than lost.
      this.logger?.error({ err: error, delivery: row.id }, 'could not record a webhook delivery outcome');
    }
  }

  private async send(row: WebhookDeliveryRow, stopSignal: AbortSignal): Promise<Outcome> {
    const [endpoint, event] = await Promise.all([
      this.webhooks.endpointForDelivery(row.endpoint_id),
      this.store.db.selectFrom('webhook_events').select(['id', 'body']).where('id', '=', row.event_id).executeTakeFirst(),
    ]);
    if (!endpoint || !event) return { kind: 'retry', status: null, error: 'endpoint or event no longer exists', retryAfterMs: undefined };

    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signatureHeaders(endpoint.secret, { id: event.id, timestamp: Math.floor(this.now() / 1000), body: event.body }),
    };
    const signal = AbortSignal.any([stopSignal, AbortSignal.timeout(this.timeoutMs)]);
    let response: OutboundResponse;
    try {
      // The outbound guard judges the address the connection goes to, and redirects are not followed: a 3xx could
      // point the signed body at an internal address.
      response = await outboundRequest(new URL(endpoint.url), { method: 'POST', headers, body: event.body, signal, policy: this.addressPolicy });
    } catch (error) {
      if (stopSignal.aborted) throw error;
      if (error instanceof OutboundRefusedError) {
        const setting = allowSettingOf(error, { loopback: 'PALAVER_WEBHOOK_ALLOW_PRIVATE', private: 'PALAVER_WEBHOOK_ALLOW_PRIVATE' });
        return { kind: 'retry', status: null, error: `url refused: ${error.message}${setting}`, retryAfterMs: undefined };
      }
      const timedOut = (error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError';
      return { kind: 'retry', status: null, error: timedOut ? `timed out after ${this.timeoutMs} ms` : describe(error), retryAfterMs: undefined };
    }
    // The answer's body is not read (the receiver may send any amount): its connection is closed, as fetch's
    // cancelled body closed it.
    response.body.destroy();
    if (response.status >= 200 && response.status < 300) return { kind: 'delivered', status: response.status };
    if (response.status === 410) return { kind: 'gone', status: 410 };
    return {
      kind: 'retry',
      status: response.status,
      error: `receiver answered ${response.status}`,
      retryAfterMs: parseRetryAfter(headerOf(response, 'retry-after'), this.now()),
    };
  }

  private async settle(row: WebhookDeliveryRow & { lease_owner: string }, attempt: number, outcome: Outcome, startedAt: number, durationMs: number) {
    const now = this.now();
    const nowIso = this.iso(now);
    const error = outcome.kind === 'retry' ? outcome.error : outcome.kind === 'gone' ? 'receiver answered 410 Gone: endpoint disabled' : null;
    let update: Partial<WebhookDeliveryRow>;
    if (outcome.kind === 'delivered') {
      update = { status: 'delivered', delivered_at: nowIso };
    } else if (outcome.kind === 'gone') {
      update = { status: 'failed' };
    } else {
      const scheduled = retryDelayMs(this.retry, attempt, this.random);
      const delay =
        scheduled === undefined ? undefined : outcome.retryAfterMs !== undefined ? Math.min(outcome.retryAfterMs, this.retry.maxRetryAfterMs) : scheduled;
      update = delay === undefined ? { status: 'failed' } : { status: 'pending', next_attempt_at: this.iso(now + delay) };
    }
    const settled: WebhookDeliveryResult = update.status === 'delivered' ? 'delivered' : update.status === 'pending' ? 'retried' : 'failed';
    const recorded = await this.store.transaction(async (trx) => {
      // Only the holder of the claim records the outcome; a dispatcher that outlived its lease changes nothing.
      const result = await trx
        .updateTable('webhook_deliveries')
        .set({
          ...update,
          last_status: 'status' in outcome ? outcome.status : null,
          last_error: error === null ? null : error.slice(0, MAX_ERROR_LENGTH),
          lease_owner: null,
          lease_until: null,
          updated_at: nowIso,
        })
        .where('id', '=', row.id)
        .where('lease_owner', '=', row.lease_owner)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx
        .insertInto('webhook_attempts')
        .values({
          id: newId('attempt'),
          delivery_id: row.id,
          attempt,
          started_at: this.iso(startedAt),
          duration_ms: durationMs,
          status_code: 'status' in outcome ? outcome.status : null,
          error: error === null ? null : error.slice(0, MAX_ERROR_LENGTH),
        })
        .execute();
      if (outcome.kind === 'gone') {
        await trx
          .updateTable('webhook_endpoints')
          .set({ enabled: 0, disabled_reason: 'receiver answered 410 Gone', updated_at: nowIso })
          .where('id', '=', row.endpoint_id)
          .execute();
      }
      return true;
    });
    // Counted once the outcome is durable, and only by the holder of the claim: no attempt counts twice.
    if (recorded) this.onSettled?.(settled);
  }

  /** Returns a claim interrupted by {@link stop} without counting the attempt. */
  private async handBack(row: WebhookDeliveryRow & { lease_owner: string }): Promise<void> {
    await this.store.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: sql<number>`attempts - 1`, lease_owner: null, lease_until: null, next_attempt_at: this.iso(this.now()) })
      .where('id', '=', row.id)
      .where('lease_owner', '=', row.lease_owner)
      .execute()
      .catch((error: unknown) => this.logger?.warn({ err: error, delivery: row.id }, 'could not hand back a webhook delivery'));
  }
}

function headerOf(response: OutboundResponse, name: string): string | null {
  const value = response.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause?.code ? `${message} (${cause.code})` : message;
}
