import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Stored responses of the Responses API (`POST /v1/responses`, decision 0096): one row per response, owned by the
 * caller's project and human (null for a project-wide API key call), its whole answer as JSON, `previous_response_id`
 * linking a conversation; and the response's input items, in order. Rows are read until `expires_at` (the retention)
 * and then swept.
 */
export const responsesMigration: Migration = {
  name: '0012-responses',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('responses')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('human', 'text')
      .addColumn('previous_response_id', 'text')
      .addColumn('body', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('responses_expiry').on('responses').columns(['expires_at']).execute();
    await db.schema
      .createTable('response_items')
      .addColumn('response_id', 'text', (column) => column.notNull())
      .addColumn('position', 'integer', (column) => column.notNull())
      .addColumn('id', 'text', (column) => column.notNull())
      .addColumn('data', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('response_items_pk', ['response_id', 'position'])
      .execute();
    await db.schema.createIndex('response_items_by_id').on('response_items').columns(['response_id', 'id']).execute();
  },
};
