import { sql, type Kysely } from 'kysely';
import type { SqliteHandle, Store } from '../database.js';
import type { Database, WebhookDeliveryRow, WebhookEventRow } from '../tables.js';

/** Outbox rows to write: the events, and the delivery of one of them to one enabled endpoint of its project. */
export interface OutboxWrite {
  events: readonly WebhookEventRow[];
  deliveryOf: (event: WebhookEventRow, endpointId: string) => WebhookDeliveryRow;
}

/**
 * Writes the events and one delivery per enabled endpoint of each event's project through the builder (any
 * database, in the caller's transaction): one insert of the events, one read of the projects' enabled endpoints,
 * one insert of the deliveries.
 */
export async function writeOutbox(executor: Kysely<Database>, write: OutboxWrite): Promise<void> {
  if (write.events.length === 0) return;
  await executor
    .insertInto('webhook_events')
    .values([...write.events])
    .execute();
  const projects = [...new Set(write.events.map((event) => event.project))];
  const endpoints = await executor
    .selectFrom('webhook_endpoints')
    .select(['id', 'project'])
    .where('project', 'in', projects)
    .where('enabled', '=', 1)
    .execute();
  if (endpoints.length === 0) return;
  const deliveries = write.events.flatMap((event) =>
    endpoints.filter((endpoint) => endpoint.project === event.project).map((endpoint) => write.deliveryOf(event, endpoint.id)),
  );
  if (deliveries.length > 0) await executor.insertInto('webhook_deliveries').values(deliveries).execute();
}

/** The outbox's SQLite statements, prepared once per database (the delivery's other columns keep their defaults: null). */
function prepareOutboxStatements(database: SqliteHandle) {
  return {
    insertEvent: database.prepare('INSERT INTO webhook_events (id, project, type, body, created_at) VALUES (?, ?, ?, ?, ?)'),
    enabledEndpoints: database.prepare('SELECT id FROM webhook_endpoints WHERE project = ? AND enabled = 1'),
    insertDelivery: database.prepare(
      'INSERT INTO webhook_deliveries (id, event_id, endpoint_id, project, status, attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
  };
}
const outboxStatements = new WeakMap<SqliteHandle, ReturnType<typeof prepareOutboxStatements>>();

/**
 * {@link writeOutbox} inside the store's synchronous SQLite transaction (`store.sqlite`): the same rows through
 * statements prepared once, for the writers on a hot path (usage records, decision 0078).
 */
export function writeOutboxNow(database: SqliteHandle, write: OutboxWrite): void {
  if (write.events.length === 0) return;
  let statements = outboxStatements.get(database);
  if (!statements) outboxStatements.set(database, (statements = prepareOutboxStatements(database)));
  const endpointsByProject = new Map<string, Array<{ id: string }>>();
  for (const event of write.events) {
    statements.insertEvent.run(event.id, event.project, event.type, event.body, event.created_at);
    let endpoints = endpointsByProject.get(event.project);
    if (!endpoints) endpointsByProject.set(event.project, (endpoints = statements.enabledEndpoints.all(event.project) as Array<{ id: string }>));
    for (const endpoint of endpoints) {
      const delivery = write.deliveryOf(event, endpoint.id);
      statements.insertDelivery.run(
        delivery.id,
        delivery.event_id,
        delivery.endpoint_id,
        delivery.project,
        delivery.status,
        delivery.attempts,
        delivery.next_attempt_at,
        delivery.created_at,
        delivery.updated_at,
      );
    }
  }
}

/** What a claim takes: deliveries due at `now`, leased to `leaseOwner` until `leaseUntil`, at most `limit`. */
export interface DeliveryClaim {
  now: string;
  leaseOwner: string;
  leaseUntil: string;
  limit: number;
}

/**
 * Claims the next due deliveries of enabled endpoints (pending and due, or delivering with an expired lease),
 * oldest due first, in one `UPDATE ... WHERE id IN (SELECT ...) RETURNING *`: each claimed row is set
 * `delivering` under the claim's lease with one more attempt. On PostgreSQL the subquery takes
 * `FOR UPDATE SKIP LOCKED`, so dispatchers claiming at the same time never take the same row; SQLite runs the
 * statement alone.
 *
 * @example
 * const rows = await claimDueDeliveries(store, { now, leaseOwner: 'dispatcher_1:claim_9', leaseUntil, limit: 10 });
 */
export async function claimDueDeliveries(store: Store, claim: DeliveryClaim): Promise<Array<WebhookDeliveryRow & { lease_owner: string }>> {
  let due = store.db
    .selectFrom('webhook_deliveries as delivery')
    .innerJoin('webhook_endpoints as endpoint', 'endpoint.id', 'delivery.endpoint_id')
    .select('delivery.id')
    .where('endpoint.enabled', '=', 1)
    .where((builder) =>
      builder.or([
        builder.and([builder('delivery.status', '=', 'pending'), builder('delivery.next_attempt_at', '<=', claim.now)]),
        builder.and([builder('delivery.status', '=', 'delivering'), builder('delivery.lease_until', '<=', claim.now)]),
      ]),
    )
    .orderBy('delivery.next_attempt_at')
    .limit(claim.limit);
  if (store.dialect === 'postgres') due = due.forUpdate('delivery').skipLocked();
  const rows = await store.db
    .updateTable('webhook_deliveries')
    .set({
      status: 'delivering',
      lease_owner: claim.leaseOwner,
      lease_until: claim.leaseUntil,
      attempts: sql<number>`attempts + 1`,
      updated_at: claim.now,
    })
    .where('id', 'in', due)
    .returningAll()
    .execute();
  return rows as Array<WebhookDeliveryRow & { lease_owner: string }>;
}
