import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Leases of hosted resources other than realtime sessions (app runs): each lease says its kind, and each
 * kind's keeper renews and reaps only its own.
 */
export const leaseKindsMigration: Migration = {
  name: '0010-lease-kinds',
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('session_leases')
      .addColumn('kind', 'text', (column) => column.notNull().defaultTo('realtime_session'))
      .execute();
  },
};
