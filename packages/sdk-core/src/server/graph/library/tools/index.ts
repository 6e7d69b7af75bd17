import type { NodeImplementation } from '../../runtime/graph-node.js';
import { mcpNode } from './mcp/mcp-node.js';
import { toolGroupNode } from './tool-group-node.js';

export const toolImplementations: Record<string, NodeImplementation> = {
  ToolGroup: toolGroupNode,
  MCP: mcpNode,
};
