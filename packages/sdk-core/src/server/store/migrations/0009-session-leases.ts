import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Who hosts each realtime session's agent: the instance holding the lease renews `expires_at`; when it stops
 * renewing (killed, machine lost), another instance (or the same one restarted) ends the session.
 * Timestamps are ISO strings like every other table, so they compare as text on both engines.
 */
export const sessionLeasesMigration: Migration = {
  name: '0009-session-leases',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('session_leases')
      .addColumn('session_id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('instance', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('session_leases_expiry').on('session_leases').columns(['expires_at']).execute();
    await db.schema.createIndex('session_leases_instance').on('session_leases').columns(['instance']).execute();
  },
};
