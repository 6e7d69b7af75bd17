import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Credits with per-human ledgers, usage metering with limit counters and reservations, and the webhook
 * outbox. Money lives in real `bigint` columns (not the document table) so the balance row can be locked.
 */
export const creditsUsageWebhooksMigration: Migration = {
  name: '0006-credits-usage-webhooks',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('credits')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('description', 'text', (column) => column.notNull())
      .addColumn('allow_negative_balance', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('credits_listing').on('credits').columns(['project', 'created_at', 'id']).execute();

    await db.schema
      .createTable('credit_balances')
      .addColumn('credit', 'text', (column) => column.notNull())
      .addColumn('human', 'text', (column) => column.notNull())
      .addColumn('balance', 'bigint', (column) => column.notNull())
      .addColumn('entry_count', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('credit_balances_pk', ['credit', 'human'])
      .execute();

    await db.schema
      .createTable('credit_ledger_entries')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('credit', 'text', (column) => column.notNull())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('human', 'text', (column) => column.notNull())
      .addColumn('sequence', 'bigint', (column) => column.notNull())
      .addColumn('amount', 'bigint', (column) => column.notNull())
      .addColumn('balance', 'bigint', (column) => column.notNull())
      .addColumn('idempotency_key', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    // The database, not only the service, guarantees one entry per key and one entry per position.
    await db.schema.createIndex('credit_ledger_idempotency').unique().on('credit_ledger_entries').columns(['credit', 'human', 'idempotency_key']).execute();
    await db.schema.createIndex('credit_ledger_sequence').unique().on('credit_ledger_entries').columns(['credit', 'human', 'sequence']).execute();

    await db.schema
      .createTable('usage_records')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('human', 'text')
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('value', 'double precision', (column) => column.notNull())
      .addColumn('metadata', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('usage_records_human').on('usage_records').columns(['project', 'human', 'type', 'created_at']).execute();

    await db.schema
      .createTable('usage_counters')
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('human', 'text', (column) => column.notNull())
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('used', 'double precision', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('usage_counters_pk', ['project', 'human', 'type'])
      .execute();

    await db.schema
      .createTable('usage_reservations')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('human', 'text', (column) => column.notNull())
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('amount', 'double precision', (column) => column.notNull())
      .addColumn('expires_at', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('usage_reservations_human').on('usage_reservations').columns(['project', 'human', 'type', 'expires_at']).execute();

    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('url', 'text', (column) => column.notNull())
      .addColumn('secret_sealed', 'text', (column) => column.notNull())
      .addColumn('enabled', 'integer', (column) => column.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('webhook_endpoints_project').on('webhook_endpoints').columns(['project', 'enabled']).execute();

    await db.schema
      .createTable('webhook_events')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('body', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('webhook_events_project').on('webhook_events').columns(['project', 'created_at']).execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('event_id', 'text', (column) => column.notNull())
      .addColumn('endpoint_id', 'text', (column) => column.notNull())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('attempts', 'integer', (column) => column.notNull())
      .addColumn('next_attempt_at', 'text', (column) => column.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').columns(['event_id']).execute();
    await db.schema.createIndex('webhook_deliveries_project').on('webhook_deliveries').columns(['project', 'status', 'created_at']).execute();

    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('delivery_id', 'text', (column) => column.notNull())
      .addColumn('attempt', 'integer', (column) => column.notNull())
      .addColumn('started_at', 'text', (column) => column.notNull())
      .addColumn('duration_ms', 'integer', (column) => column.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .execute();
    await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'attempt']).execute();
  },
};
