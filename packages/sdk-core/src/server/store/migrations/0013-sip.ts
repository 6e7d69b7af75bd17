import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

/**
 * LiveKit SIP configuration made through `/twirp/livekit.SIP/*` (issue 32): inbound and outbound trunks in one
 * table (`direction`), dispatch rules in another, each owned by a project and kept as the protocol message's JSON
 * (`SIPInboundTrunkInfo`, `SIPOutboundTrunkInfo`, `SIPDispatchRuleInfo`). Every instance reads them from here when
 * a call arrives, so several instances on one database route calls alike.
 */
export const sipMigration: Migration = {
  name: '0013-sip',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sip_trunks')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('direction', 'text', (column) => column.notNull())
      .addColumn('body', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('sip_trunks_by_project').on('sip_trunks').columns(['project', 'direction', 'created_at']).execute();
    await db.schema.createIndex('sip_trunks_by_direction').on('sip_trunks').columns(['direction']).execute();
    await db.schema
      .createTable('sip_dispatch_rules')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('body', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('sip_dispatch_rules_by_project').on('sip_dispatch_rules').columns(['project', 'created_at']).execute();
  },
};
