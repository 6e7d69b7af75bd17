import type { ToolDefinition } from '../../../../contract/tools.js';
import type { GraphRunEnvironment } from '../../runtime/run-environment.js';

/** The ToolGroup nodes of a run by node id: each answers its tool definitions. */
const groups = new WeakMap<GraphRunEnvironment, Map<string, () => Promise<ToolDefinition[]>>>();

export function registerToolGroup(environment: GraphRunEnvironment, nodeId: string, definitions: () => Promise<ToolDefinition[]>): () => void {
  let byNode = groups.get(environment);
  if (!byNode) groups.set(environment, (byNode = new Map<string, () => Promise<ToolDefinition[]>>()));
  byNode.set(nodeId, definitions);
  return () => byNode.delete(nodeId);
}

/** The tool definitions of the ToolGroup node `nodeId` of this run; undefined when there is no such node. */
export function toolGroupDefinitions(environment: GraphRunEnvironment, nodeId: string): Promise<ToolDefinition[]> | undefined {
  return groups.get(environment)?.get(nodeId)?.();
}
