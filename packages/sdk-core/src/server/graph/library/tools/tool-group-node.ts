import type { NodeImplementation } from '../../runtime/graph-node.js';
import { registerToolGroup } from './tool-groups.js';

function references(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item !== '') : [];
}

/**
 * ToolGroup: names the project's tool definitions (`tools`: ids or names; also `config.tools`) an LLM linked
 * to `self` may call. Definitions are looked up as the run's principal when the LLM runs, so a changed
 * definition takes effect on the next answer.
 */
export const toolGroupNode: NodeImplementation = async (node, signal) => {
  const { environment } = node;
  const unregister = registerToolGroup(environment, node.id, async () => {
    const config = node.value('config');
    const fromConfig = typeof config === 'object' && config !== null ? references((config as { tools?: unknown }).tools) : [];
    const wanted = [...new Set([...references(node.value('tools')), ...fromConfig])];
    if (wanted.length === 0) return [];
    const lookup = environment.engines.tools;
    if (!lookup) throw new Error('tools are not available on this server');
    const found = await lookup.find(environment.principal, wanted);
    const missing = wanted.filter((reference) => !found.some((definition) => definition.id === reference || definition.name === reference));
    if (missing.length > 0) node.log('warning', `no tool definition '${missing.join("', '")}' in the project`, 'tools');
    return found;
  });
  node.propertySource('self').push(node.id);
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  unregister();
};
