import type { Transaction } from 'kysely';
import { WebhookMessage } from '../../../contract/webhooks.js';
import { BadRequestError, NotFoundError } from '../../../errors/api-error.js';
import type { Store } from '../../store/database.js';
import { writeOutbox, type OutboxWrite } from '../../store/dialect/index.js';
import { newId, nowIso } from '../../store/ids.js';
import type { Database, WebhookDeliveryRow, WebhookEndpointRow, WebhookEventRow } from '../../store/tables.js';
import { allowSettingOf, targetRefusal } from '../../kernel/outbound/index.js';
import { decrypt, encrypt } from '../auth/encryption.js';
import { generateWebhookSecret } from './webhook-signature.js';

/** Id of the endpoint configured by `PALAVER_WEBHOOK_URL` for a project. */
const CONFIGURED_ENDPOINT_PREFIX = 'webhook_endpoint_config_';

export interface WebhookEndpoint {
  id: string;
  project: string;
  url: string;
  enabled: boolean;
  disabled_reason: string | null;
  /** Whether it comes from `PALAVER_WEBHOOK_URL` (changed by configuration, not by the CLI). */
  configured: boolean;
  created_at: string;
}

export interface WebhookDelivery {
  /** Delivery id (one per event and endpoint). */
  id: string;
  /** The event id, sent as `webhook-id` on every attempt. */
  event_id: string;
  event_type: string;
  endpoint_id: string;
  status: 'pending' | 'delivering' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

export interface WebhookAttempt {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

/** Which deliveries to send again: one delivery, one event (to all or one endpoint), or every failed one. */
export type ReplaySelector = { deliveryId: string } | { eventId: string; endpointId?: string } | { status: 'failed'; since?: string };

export interface WebhookServiceOptions {
  /**
   * Whether endpoint URLs may name loopback and private-network addresses. Checked on the literal URL when an
   * endpoint is saved; the dispatcher's outbound guard judges the address each delivery connects to.
   */
  allowPrivateAddresses: boolean;
}

type Executor = Store['db'] | Transaction<Database>;

function toEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    project: row.project,
    url: row.url,
    enabled: row.enabled !== 0,
    disabled_reason: row.disabled_reason,
    configured: row.id.startsWith(CONFIGURED_ENDPOINT_PREFIX),
    created_at: row.created_at,
  };
}

/** How events come to the outbox: `checked` ones are parsed by the contract first (unknown fields dropped). */
export interface EnqueueOptions {
  /**
   * False for events built field by field in the contract's shape by a hot path whose tests assert that parsing
   * changes nothing (usage records, `usage-batch.ts`): the parse cost 40-90 µs per event. Default true.
   */
  checked?: boolean;
}

/** The outbox rows of events (validated against the contract unless already in its shape: nothing malformed is queued). */
function eventRows(events: ReadonlyArray<{ project: string; event: WebhookMessage }>, now: string, options: EnqueueOptions): WebhookEventRow[] {
  return events.map(({ project, event }) => {
    const message = options.checked === false ? event : WebhookMessage.parse(event);
    return { id: newId('msg'), project, type: message.type, body: JSON.stringify(message), created_at: now };
  });
}

/**
 * Webhook endpoints per project and the durable outbox of events. {@link WebhookService.enqueue} is
 * called by other services inside the transaction of the change that causes the event, so an event
 * exists if and only if its change was committed; the dispatcher delivers from the outbox.
 *
 * @example
 * await store.transaction(async (trx) => {
 *   await trx.insertInto('usage_records').values(record).execute();
 *   await services.webhooks.enqueue(trx, project, { type: 'usage.tracked', payload });
 * });
 */
export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly sealingKey: Uint8Array,
    private readonly options: WebhookServiceOptions,
  ) {}

  /**
   * Writes an event and one pending delivery per enabled endpoint of the project, using the caller's
   * transaction. Returns the event id (the `webhook-id` receivers dedupe on).
   */
  async enqueue(trx: Executor, project: string, event: WebhookMessage): Promise<string> {
    const [id] = await this.enqueueMany(trx, [{ project, event }]);
    return id!;
  }

  /**
   * {@link WebhookService.enqueue} for several events at once (a group commit): one insert of the events, one
   * read of the projects' enabled endpoints, one insert of the deliveries. Returns the event ids in order.
   */
  async enqueueMany(trx: Executor, events: ReadonlyArray<{ project: string; event: WebhookMessage }>, options: EnqueueOptions = {}): Promise<string[]> {
    const write = this.outboxOf(events, options);
    await writeOutbox(trx, write);
    return write.events.map((row) => row.id);
  }

  /**
   * The outbox rows of events, for a writer that writes them with its own rows in one transaction (usage records'
   * group commit, through the store's `commitUsage`): the events, and one pending delivery per enabled endpoint.
   */
  outboxOf(events: ReadonlyArray<{ project: string; event: WebhookMessage }>, options: EnqueueOptions = {}): OutboxWrite {
    const now = nowIso();
    return { events: eventRows(events, now, options), deliveryOf: (event, endpointId) => this.newDelivery(event.id, endpointId, event.project, now) };
  }

  /** Adds an endpoint; the secret (generated when absent) is shown only in this answer. */
  async addEndpoint(project: string, input: { url: string; secret?: string }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    this.assertUrl(input.url);
    if (input.secret !== undefined && input.secret.length < 8) throw new BadRequestError('secret: must be at least 8 characters');
    const secret = input.secret ?? generateWebhookSecret();
    const row = this.newEndpointRow(newId('webhook_endpoint'), project, input.url, secret);
    await this.store.db.insertInto('webhook_endpoints').values(row).execute();
    return { endpoint: toEndpoint(row), secret };
  }

  /**
   * Creates or updates the endpoint given by configuration (`PALAVER_WEBHOOK_URL`/`_SECRET`). A changed
   * URL re-enables it; an endpoint disabled by a 410 stays disabled while the URL is the same.
   */
  async configureEndpoint(project: string, url: string, secret: string): Promise<WebhookEndpoint> {
    this.assertUrl(url);
    const id = `${CONFIGURED_ENDPOINT_PREFIX}${project}`;
    const existing = await this.store.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    const row = this.newEndpointRow(id, project, url, secret);
    if (!existing) {
      await this.store.db.insertInto('webhook_endpoints').values(row).execute();
      return toEndpoint(row);
    }
    const urlChanged = existing.url !== url;
    const updated: WebhookEndpointRow = {
      ...existing,
      url,
      secret_sealed: row.secret_sealed,
      enabled: urlChanged ? 1 : existing.enabled,
      disabled_reason: urlChanged ? null : existing.disabled_reason,
      updated_at: row.updated_at,
    };
    await this.store.db.updateTable('webhook_endpoints').set(updated).where('id', '=', id).execute();
    return toEndpoint(updated);
  }

  async listEndpoints(project: string): Promise<WebhookEndpoint[]> {
    const rows = await this.store.db.selectFrom('webhook_endpoints').selectAll().where('project', '=', project).orderBy('created_at').execute();
    return rows.map(toEndpoint);
  }

  /** Removes an endpoint; its undelivered deliveries are marked failed. */
  async removeEndpoint(project: string, id: string): Promise<void> {
    await this.store.transaction(async (trx) => {
      const deleted = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).where('project', '=', project).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw new NotFoundError(`webhook endpoint '${id}' not found`);
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', last_error: 'endpoint removed', lease_owner: null, lease_until: null, updated_at: nowIso() })
        .where('endpoint_id', '=', id)
        .where('status', 'in', ['pending', 'delivering'])
        .execute();
    });
  }

  /** Turns an endpoint on again (after a 410 disabled it); its pending deliveries resume. */
  async setEndpointEnabled(project: string, id: string, enabled: boolean, reason: string | null = null): Promise<WebhookEndpoint> {
    await this.store.db
      .updateTable('webhook_endpoints')
      .set({ enabled: enabled ? 1 : 0, disabled_reason: enabled ? null : reason, updated_at: nowIso() })
      .where('id', '=', id)
      .where('project', '=', project)
      .execute();
    const row = await this.store.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('project', '=', project).executeTakeFirst();
    if (!row) throw new NotFoundError(`webhook endpoint '${id}' not found`);
    return toEndpoint(row);
  }

  async listDeliveries(
    project: string,
    filter: { status?: WebhookDelivery['status']; eventId?: string; endpointId?: string; limit?: number } = {},
  ): Promise<WebhookDelivery[]> {
    let query = this.store.db
      .selectFrom('webhook_deliveries as delivery')
      .innerJoin('webhook_events as event', 'event.id', 'delivery.event_id')
      .selectAll('delivery')
      .select('event.type as event_type')
      .where('delivery.project', '=', project);
    if (filter.status) query = query.where('delivery.status', '=', filter.status);
    if (filter.eventId) query = query.where('delivery.event_id', '=', filter.eventId);
    if (filter.endpointId) query = query.where('delivery.endpoint_id', '=', filter.endpointId);
    const rows = await query
      .orderBy('delivery.created_at', 'desc')
      .orderBy('delivery.id', 'desc')
      .limit(Math.min(Math.max(filter.limit ?? 50, 1), 1000))
      .execute();
    return rows.map((row) => this.toDelivery(row, row.event_type));
  }

  /** One delivery with the history of its attempts. */
  async getDelivery(project: string, id: string): Promise<WebhookDelivery & { attempts_log: WebhookAttempt[]; body: string }> {
    const row = await this.store.db
      .selectFrom('webhook_deliveries as delivery')
      .innerJoin('webhook_events as event', 'event.id', 'delivery.event_id')
      .selectAll('delivery')
      .select(['event.type as event_type', 'event.body as body'])
      .where('delivery.id', '=', id)
      .where('delivery.project', '=', project)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`webhook delivery '${id}' not found`);
    const attempts = await this.store.db
      .selectFrom('webhook_attempts')
      .select(['attempt', 'started_at', 'duration_ms', 'status_code', 'error'])
      .where('delivery_id', '=', id)
      .orderBy('attempt')
      .execute();
    return { ...this.toDelivery(row, row.event_type), body: row.body, attempts_log: attempts };
  }

  /**
   * Sends deliveries again from a fresh schedule, with the same `webhook-id`. For an event without a
   * delivery to an endpoint (it was added later, or was disabled), one is created. Returns how many were queued.
   */
  async replay(project: string, selector: ReplaySelector): Promise<number> {
    const now = nowIso();
    const reset = { status: 'pending', attempts: 0, next_attempt_at: now, lease_owner: null, lease_until: null, last_error: null, updated_at: now };
    return this.store.transaction(async (trx) => {
      if ('deliveryId' in selector) {
        const result = await trx
          .updateTable('webhook_deliveries')
          .set(reset)
          .where('id', '=', selector.deliveryId)
          .where('project', '=', project)
          .where('status', '!=', 'delivering')
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw new NotFoundError(`webhook delivery '${selector.deliveryId}' not found or being delivered now`);
        return 1;
      }
      if ('eventId' in selector) {
        const event = await trx.selectFrom('webhook_events').select('id').where('id', '=', selector.eventId).where('project', '=', project).executeTakeFirst();
        if (!event) throw new NotFoundError(`webhook event '${selector.eventId}' not found`);
        let endpoints = trx.selectFrom('webhook_endpoints').select('id').where('project', '=', project);
        endpoints = selector.endpointId ? endpoints.where('id', '=', selector.endpointId) : endpoints.where('enabled', '=', 1);
        let queued = 0;
        for (const endpoint of await endpoints.execute()) {
          const updated = await trx
            .updateTable('webhook_deliveries')
            .set(reset)
            .where('event_id', '=', event.id)
            .where('endpoint_id', '=', endpoint.id)
            .where('status', '!=', 'delivering')
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) {
            const exists = await trx
              .selectFrom('webhook_deliveries')
              .select('id')
              .where('event_id', '=', event.id)
              .where('endpoint_id', '=', endpoint.id)
              .executeTakeFirst();
            if (exists) continue;
            await trx
              .insertInto('webhook_deliveries')
              .values(this.newDelivery(event.id, endpoint.id, project, now))
              .execute();
          }
          queued += 1;
        }
        return queued;
      }
      let query = trx.updateTable('webhook_deliveries').set(reset).where('project', '=', project).where('status', '=', 'failed');
      if (selector.since) query = query.where('created_at', '>=', selector.since);
      return Number((await query.executeTakeFirst()).numUpdatedRows);
    });
  }

  /**
   * Deliveries still to make in the whole outbox, every project together: pending (due or waiting for a
   * retry) or being delivered. What `/metrics` reports as `palaver_webhook_outbox_depth`; the index on
   * (status, next_attempt_at) answers it without reading the rows.
   */
  async outboxDepth(): Promise<number> {
    const row = await this.store.db
      .selectFrom('webhook_deliveries')
      .select((builder) => builder.fn.countAll<number | string>().as('count'))
      .where('status', 'in', ['pending', 'delivering'])
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The endpoint's signing secret, unsealed (for the dispatcher only). */
  async endpointForDelivery(id: string): Promise<{ url: string; secret: string; enabled: boolean } | undefined> {
    const row = await this.store.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return { url: row.url, secret: decrypt(this.sealingKey, row.secret_sealed, `webhook-endpoint:${row.id}`), enabled: row.enabled !== 0 };
  }

  private assertUrl(url: string): void {
    const allow = this.options.allowPrivateAddresses;
    const refused = targetRefusal(url, { allowLoopback: allow, allowPrivateNetworks: allow });
    if (refused) {
      throw new BadRequestError(
        `url: ${refused.message}${allowSettingOf(refused, { loopback: 'PALAVER_WEBHOOK_ALLOW_PRIVATE', private: 'PALAVER_WEBHOOK_ALLOW_PRIVATE' })}`,
      );
    }
  }

  private newEndpointRow(id: string, project: string, url: string, secret: string): WebhookEndpointRow {
    const now = nowIso();
    return {
      id,
      project,
      url,
      secret_sealed: encrypt(this.sealingKey, secret, `webhook-endpoint:${id}`),
      enabled: 1,
      disabled_reason: null,
      created_at: now,
      updated_at: now,
    };
  }

  private newDelivery(eventId: string, endpointId: string, project: string, now: string): WebhookDeliveryRow {
    return {
      id: newId('delivery'),
      event_id: eventId,
      endpoint_id: endpointId,
      project,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      lease_owner: null,
      lease_until: null,
      last_status: null,
      last_error: null,
      delivered_at: null,
      created_at: now,
      updated_at: now,
    };
  }

  private toDelivery(row: WebhookDeliveryRow, eventType: string): WebhookDelivery {
    return {
      id: row.id,
      event_id: row.event_id,
      event_type: eventType,
      endpoint_id: row.endpoint_id,
      status: row.status as WebhookDelivery['status'],
      attempts: Number(row.attempts),
      next_attempt_at: row.next_attempt_at,
      last_status: row.last_status === null ? null : Number(row.last_status),
      last_error: row.last_error,
      delivered_at: row.delivered_at,
      created_at: row.created_at,
    };
  }
}
