import type { Kysely, Transaction } from 'kysely';
import type { ContextAdvancedMemoryEdge, ContextAdvancedMemoryNode } from '../../../../contract/contexts.js';
import { newId } from '../../../store/ids.js';
import type { Database, MemoryEdgeRow, MemoryNodeRow } from '../../../store/tables.js';
import { displayName, nameKey } from './entity-names.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** The context a graph belongs to. */
export interface GraphScope {
  contextId: string;
  project: string;
}

/** Most facts a node's summary lists. */
const SUMMARY_FACTS = 10;
const SUMMARY_CHARS = 1000;

export function toMemoryNode(row: MemoryNodeRow): ContextAdvancedMemoryNode {
  return { id: row.id, created_at: row.created_at, updated_at: row.updated_at, name: row.name, summary: row.summary };
}

export function toMemoryEdge(row: MemoryEdgeRow): ContextAdvancedMemoryEdge {
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    source_node: row.source_node,
    target_node: row.target_node,
    fact: row.fact,
    relation: row.relation,
    ...(row.invalidated_at !== null ? { invalidated_at: row.invalidated_at } : {}),
  };
}

/** Rows of the `memory_nodes` and `memory_edges` tables of one context; every write takes the caller's executor. */
export class MemoryGraphRepository {
  /** The node named `name` (normalised), created when missing; an existing node keeps its first spelling. */
  async ensureNode(executor: Executor, scope: GraphScope, name: string, at: string): Promise<MemoryNodeRow> {
    const key = nameKey(name);
    await executor
      .insertInto('memory_nodes')
      .values({
        id: newId('memnode'),
        context_id: scope.contextId,
        project: scope.project,
        name: displayName(name),
        name_key: key,
        summary: '',
        created_at: at,
        updated_at: at,
      })
      .onConflict((conflict) => conflict.columns(['context_id', 'name_key']).doNothing())
      .execute();
    return executor.selectFrom('memory_nodes').selectAll().where('context_id', '=', scope.contextId).where('name_key', '=', key).executeTakeFirstOrThrow();
  }

  /** The valid (not invalidated) edges leaving `nodeId`. */
  validEdgesFrom(executor: Executor, contextId: string, nodeId: string): Promise<MemoryEdgeRow[]> {
    return executor
      .selectFrom('memory_edges')
      .selectAll()
      .where('context_id', '=', contextId)
      .where('source_node', '=', nodeId)
      .where('invalidated_at', 'is', null)
      .execute();
  }

  async insertEdge(executor: Executor, edge: MemoryEdgeRow): Promise<void> {
    await executor.insertInto('memory_edges').values(edge).execute();
  }

  /** A fact stated again: its edge is kept and marked as updated. */
  async touchEdge(executor: Executor, id: string, at: string): Promise<void> {
    await executor.updateTable('memory_edges').set({ updated_at: at }).where('id', '=', id).execute();
  }

  /** Contradicted facts stay in the graph with `invalidated_at`. */
  async invalidateEdges(executor: Executor, ids: readonly string[], at: string): Promise<void> {
    if (ids.length === 0) return;
    await executor
      .updateTable('memory_edges')
      .set({ invalidated_at: at, updated_at: at })
      .where('id', 'in', [...ids])
      .where('invalidated_at', 'is', null)
      .execute();
  }

  /** Rewrites a node's summary from its currently valid facts (outgoing first, oldest first). */
  async refreshSummary(executor: Executor, contextId: string, nodeId: string, at: string): Promise<void> {
    const edges = await executor
      .selectFrom('memory_edges')
      .select(['fact', 'source_node'])
      .where('context_id', '=', contextId)
      .where((eb) => eb.or([eb('source_node', '=', nodeId), eb('target_node', '=', nodeId)]))
      .where('invalidated_at', 'is', null)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    const ordered = [...edges.filter((edge) => edge.source_node === nodeId), ...edges.filter((edge) => edge.source_node !== nodeId)];
    const summary = ordered
      .slice(0, SUMMARY_FACTS)
      .map((edge) => `${edge.fact}.`)
      .join(' ')
      .slice(0, SUMMARY_CHARS);
    await executor.updateTable('memory_nodes').set({ summary, updated_at: at }).where('id', '=', nodeId).execute();
  }

  /** Every node of a context, newest first, at most `limit`. */
  nodes(executor: Executor, contextId: string, limit: number): Promise<MemoryNodeRow[]> {
    return executor
      .selectFrom('memory_nodes')
      .selectAll()
      .where('context_id', '=', contextId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Edges touching any of `nodeIds`: valid ones first (most recently updated first), then invalidated ones
   * (most recently invalidated first), at most `limit` in all.
   */
  async edgesAround(executor: Executor, contextId: string, nodeIds: readonly string[], limit: number): Promise<MemoryEdgeRow[]> {
    if (nodeIds.length === 0) return [];
    const around = executor
      .selectFrom('memory_edges')
      .selectAll()
      .where('context_id', '=', contextId)
      .where((eb) => eb.or([eb('source_node', 'in', [...nodeIds]), eb('target_node', 'in', [...nodeIds])]));
    const valid = await around.where('invalidated_at', 'is', null).orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    if (valid.length >= limit) return valid;
    const invalidated = await around
      .where('invalidated_at', 'is not', null)
      .orderBy('invalidated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit - valid.length)
      .execute();
    return [...valid, ...invalidated];
  }
}
