import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Usage reservations name the instance that holds them (its lease, kind `instance`, in `session_leases`) and carry
 * what their request used so far (`used`, with the record's `metadata`): when that instance stops renewing its lease,
 * the instance that reaps the lease records what they used and deletes them (decision 0093).
 */
export const reservationOwnersMigration: Migration = {
  name: '0011-reservation-owners',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('usage_reservations').addColumn('instance', 'text').execute();
    await db.schema.alterTable('usage_reservations').addColumn('used', 'double precision').execute();
    await db.schema.alterTable('usage_reservations').addColumn('metadata', 'text').execute();
    await db.schema.createIndex('usage_reservations_instance').on('usage_reservations').column('instance').execute();
  },
};
