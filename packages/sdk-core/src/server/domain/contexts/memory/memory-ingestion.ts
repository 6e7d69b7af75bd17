import type { Transaction } from 'kysely';
import { newId } from '../../../store/ids.js';
import type { Database, MemoryEdgeRow } from '../../../store/tables.js';
import type { GraphScope, MemoryGraphRepository } from './memory-graph-repository.js';
import type { ExtractedFact } from './memory-extractor.js';
import { SENTIMENT_RELATIONS } from './relations.js';

/** Most facts one message adds: bounds the work of one transaction (a message may hold 100,000 characters). */
export const MAX_FACTS_PER_MESSAGE = 100;

/** Whether a valid edge is contradicted by a new fact from the same source. */
function contradicts(existing: MemoryEdgeRow, fact: ExtractedFact, targetId: string): boolean {
  if (fact.exclusive && existing.relation === fact.relation) return existing.target_node !== targetId;
  // `likes X` then `hates X`: a different feeling about the same target replaces the earlier one.
  return (
    SENTIMENT_RELATIONS.has(fact.relation) &&
    SENTIMENT_RELATIONS.has(existing.relation) &&
    existing.target_node === targetId &&
    existing.relation !== fact.relation
  );
}

/**
 * Applies the facts of one message to a context's graph inside the caller's transaction: nodes are
 * upserted by normalised name, a fact already known is re-affirmed (its edge's `updated_at`), a
 * contradicted edge gets `invalidated_at` (never deleted), then the touched nodes' summaries are rewritten.
 */
export async function ingestFacts(
  trx: Transaction<Database>,
  graph: MemoryGraphRepository,
  scope: GraphScope,
  messageId: string,
  at: string,
  facts: readonly ExtractedFact[],
): Promise<void> {
  const touched = new Set<string>();
  for (const fact of facts.slice(0, MAX_FACTS_PER_MESSAGE)) {
    const source = await graph.ensureNode(trx, scope, fact.source, at);
    const target = await graph.ensureNode(trx, scope, fact.target, at);
    if (source.id === target.id) continue;
    touched.add(source.id).add(target.id);
    const valid = await graph.validEdgesFrom(trx, scope.contextId, source.id);
    const known = valid.find((edge) => edge.relation === fact.relation && edge.target_node === target.id);
    if (known) {
      await graph.touchEdge(trx, known.id, at);
      continue;
    }
    const contradicted = valid.filter((edge) => contradicts(edge, fact, target.id));
    await graph.invalidateEdges(
      trx,
      contradicted.map((edge) => edge.id),
      at,
    );
    for (const edge of contradicted) touched.add(edge.target_node);
    await graph.insertEdge(trx, {
      id: newId('memedge'),
      context_id: scope.contextId,
      project: scope.project,
      source_node: source.id,
      target_node: target.id,
      relation: fact.relation,
      fact: fact.fact,
      message_id: messageId,
      created_at: at,
      updated_at: at,
      invalidated_at: null,
    });
  }
  for (const nodeId of touched) await graph.refreshSummary(trx, scope.contextId, nodeId, at);
}
