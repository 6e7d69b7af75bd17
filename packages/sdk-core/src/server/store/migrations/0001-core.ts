import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

export const coreMigration: Migration = {
  name: '0001-core',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('disabled', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull().references('projects.id'))
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('key_hash', 'text', (column) => column.notNull().unique())
      .addColumn('key_prefix', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema
      .createTable('usage_tokens')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('human', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'text', (column) => column.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('usage_tokens_human').on('usage_tokens').columns(['project', 'human']).execute();
    await db.schema
      .createTable('usage_limits')
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('human', 'text', (column) => column.notNull())
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('value', 'double precision', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('usage_limits_pk', ['project', 'human', 'type'])
      .execute();
    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('value', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('documents')
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('id', 'text', (column) => column.notNull())
      .addColumn('project', 'text')
      .addColumn('human', 'text')
      .addColumn('parent', 'text')
      .addColumn('name', 'text')
      .addColumn('tags', 'text')
      .addColumn('data', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .addColumn('deleted_at', 'text')
      .addPrimaryKeyConstraint('documents_pk', ['kind', 'id'])
      .execute();
    await db.schema.createIndex('documents_listing').on('documents').columns(['kind', 'project', 'created_at', 'id']).execute();
    await db.schema.createIndex('documents_parent').on('documents').columns(['kind', 'parent']).execute();
    await db.schema
      .createTable('context_messages')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('context_id', 'text', (column) => column.notNull())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('human', 'text')
      .addColumn('role', 'text', (column) => column.notNull())
      .addColumn('content', 'text', (column) => column.notNull())
      .addColumn('extra', 'text', (column) => column.notNull())
      .addColumn('realtime_session', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('context_messages_context').on('context_messages').columns(['context_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('context_messages_project_time').on('context_messages').columns(['project', 'created_at']).execute();
  },
};
