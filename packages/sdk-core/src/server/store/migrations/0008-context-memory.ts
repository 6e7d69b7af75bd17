import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

/**
 * The advanced memory graph of contexts (docs/decisions/0065-advanced-memory-graph.md): entities as nodes,
 * facts as edges between two nodes. Edges are never deleted; a contradicted fact gets `invalidated_at`.
 * `name_key` is the normalised name (lower case, no articles), unique per context.
 */
export const contextMemoryMigration: Migration = {
  name: '0008-context-memory',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('memory_nodes')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('context_id', 'text', (column) => column.notNull())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('name_key', 'text', (column) => column.notNull())
      .addColumn('summary', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('memory_nodes_name').unique().on('memory_nodes').columns(['context_id', 'name_key']).execute();

    await db.schema
      .createTable('memory_edges')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('context_id', 'text', (column) => column.notNull())
      .addColumn('project', 'text', (column) => column.notNull())
      .addColumn('source_node', 'text', (column) => column.notNull())
      .addColumn('target_node', 'text', (column) => column.notNull())
      .addColumn('relation', 'text', (column) => column.notNull())
      .addColumn('fact', 'text', (column) => column.notNull())
      .addColumn('message_id', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .addColumn('invalidated_at', 'text')
      .execute();
    await db.schema.createIndex('memory_edges_source').on('memory_edges').columns(['context_id', 'source_node', 'relation']).execute();
    await db.schema.createIndex('memory_edges_target').on('memory_edges').columns(['context_id', 'target_node']).execute();
  },
};
