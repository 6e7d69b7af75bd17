import type { Kysely } from 'kysely';
import type { ContextAdvancedMemoryQueryResult } from '../../../../contract/contexts.js';
import type { Database, MemoryNodeRow } from '../../../store/tables.js';
import { contentTokens, mentionsSpeaker } from './entity-names.js';
import { toMemoryEdge, toMemoryNode, type MemoryGraphRepository } from './memory-graph-repository.js';

/** Bounds of a query's answer and of the nodes it scores. */
export const MEMORY_QUERY_LIMITS = { nodes: 50, edges: 100, seeds: 20, scanned: 5000 } as const;

/** The node named for the user: the speaker of `new_user_message`. */
const USER_NODE_KEY = 'user';

function phraseOf(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;
}

/** What a message is matched with, computed once per query. */
export interface MessageProbe {
  phrase: string;
  words: Set<string>;
  speaksAsUser: boolean;
}

export function probeOf(message: string): MessageProbe {
  return { phrase: phraseOf(message), words: contentTokens(message), speaksAsUser: mentionsSpeaker(message) };
}

/**
 * How a node matches a message. By name: its whole name mentioned (10), the user node when the message
 * speaks in the first person (10), each content word shared with its name (3). By summary: each content
 * word shared with its summary (1).
 */
export function relevance(node: Pick<MemoryNodeRow, 'name_key' | 'name' | 'summary'>, probe: MessageProbe): { byName: number; bySummary: number } {
  let byName = 0;
  const name = phraseOf(node.name_key);
  if (name.trim() !== '' && probe.phrase.includes(name)) byName += 10;
  if (node.name_key === USER_NODE_KEY && probe.speaksAsUser) byName += 10;
  for (const token of contentTokens(node.name)) if (probe.words.has(token)) byName += 3;
  let bySummary = 0;
  for (const token of contentTokens(node.summary)) if (probe.words.has(token)) bySummary += 1;
  return { byName, bySummary };
}

/**
 * The part of a context's graph relevant to a new user message: the nodes it mentions (by name, or when
 * it names none, by words shared with their summaries), their neighbours one hop away and the edges
 * touching them. Valid edges come first;
 * invalidated ones follow with `invalidated_at`, so callers see what changed.
 */
export async function queryMemory(
  db: Kysely<Database>,
  graph: MemoryGraphRepository,
  contextId: string,
  message: string,
): Promise<ContextAdvancedMemoryQueryResult> {
  const nodes = await graph.nodes(db, contextId, MEMORY_QUERY_LIMITS.scanned);
  const probe = probeOf(message);
  const scored = nodes.map((node) => ({ node, ...relevance(node, probe) }));
  // Nodes the message names are the seeds; only when it names none do summaries decide (a summary also
  // lists the node's neighbours, which the one-hop expansion adds anyway).
  const named = scored.filter((entry) => entry.byName > 0);
  const seeds = (named.length > 0 ? named : scored.filter((entry) => entry.bySummary > 0))
    .sort((a, b) => b.byName - a.byName || b.bySummary - a.bySummary)
    .slice(0, MEMORY_QUERY_LIMITS.seeds)
    .map((entry) => entry.node);
  if (seeds.length === 0) return { nodes: [], edges: [] };

  const byId = new Map(nodes.map((node) => [node.id, node]));
  const edges = await graph.edgesAround(
    db,
    contextId,
    seeds.map((node) => node.id),
    MEMORY_QUERY_LIMITS.edges,
  );
  const chosen = new Map(seeds.map((node) => [node.id, node]));
  for (const edge of edges) {
    for (const id of [edge.source_node, edge.target_node]) {
      const node = byId.get(id);
      if (node && chosen.size < MEMORY_QUERY_LIMITS.nodes) chosen.set(id, node);
    }
  }
  return {
    nodes: [...chosen.values()].map(toMemoryNode),
    edges: edges.filter((edge) => chosen.has(edge.source_node) && chosen.has(edge.target_node)).map(toMemoryEdge),
  };
}
