import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ChatCompletionTool, ChatMessageToolCall } from '../../../../contract/chat.js';
import type { RuntimeNode } from '../../runtime/graph-node.js';
import { PropertySinkPad } from '../../runtime/pads.js';
import { mcpClientOf } from '../tools/mcp/mcp-connections.js';

/** The longest an MCP tool call may take (the engine's bound). */
const MCP_CALL_TIMEOUT_MS = 15_000;

type ToolResult = { ok: true; value: unknown } | { ok: false; error: string };

/** The tools of the MCP nodes an LLM node's `mcp_server_{i}` pads name: what the model is offered, and how to call them. */
export interface McpTools {
  forModel: ChatCompletionTool[];
  /** Whether the model's call `name` is one of these tools. */
  has(name: string): boolean;
  call(call: ChatMessageToolCall, signal: AbortSignal): Promise<ToolResult>;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Text of an MCP tool result: its text blocks, else its structured content, else its blocks as JSON. */
function resultValue(result: Awaited<ReturnType<Client['callTool']>>): unknown {
  const blocks = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  const texts = blocks.filter((block) => block.type === 'text' && typeof block.text === 'string').map((block) => block.text);
  if (texts.length > 0) return texts.join('\n');
  return result.structuredContent ?? blocks;
}

async function clientsOf(node: RuntimeNode): Promise<Client[]> {
  const clients: Client[] = [];
  for (const pad of node.numbered('mcp_server_', PropertySinkPad)) {
    if (typeof pad.value !== 'string' || pad.value === '' || pad.value === 'None') continue;
    const client = mcpClientOf(node.environment, pad.value);
    if (!client) {
      node.log('warning', `${pad.id} names '${pad.value}', which is not an MCP node of this graph`, pad.id);
      continue;
    }
    try {
      clients.push(await client);
    } catch (error) {
      node.log('warning', `the MCP server of '${pad.value}' is not connected: ${errorMessage(error)}`, pad.id);
    }
  }
  return clients;
}

/**
 * The tools of the MCP servers an LLM node may call, listed when it answers (a server's tools may change).
 * A tool name two servers share goes to the first.
 */
export async function mcpToolsOf(node: RuntimeNode): Promise<McpTools> {
  const owners = new Map<string, Client>();
  const forModel: ChatCompletionTool[] = [];
  for (const client of await clientsOf(node)) {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      if (owners.has(tool.name)) continue;
      owners.set(tool.name, client);
      forModel.push({
        type: 'function',
        function: { name: tool.name, strict: false, ...(tool.description ? { description: tool.description } : {}), parameters: tool.inputSchema },
      });
    }
  }
  return {
    forModel,
    has: (name) => owners.has(name),
    async call(call, signal) {
      const client = owners.get(call.function.name)!;
      try {
        const args: unknown = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
        const result = await client.callTool({ name: call.function.name, arguments: args as Record<string, unknown> }, undefined, {
          signal,
          timeout: MCP_CALL_TIMEOUT_MS,
        });
        return result.isError ? { ok: false, error: String(resultValue(result)) } : { ok: true, value: resultValue(result) };
      } catch (error) {
        return { ok: false, error: `calling '${call.function.name}' failed: ${errorMessage(error)}` };
      }
    },
  };
}

/** Whether any `mcp_server_{i}` pad names an MCP node (answers are then not prepared ahead: they may call tools). */
export function namesMcpServers(node: RuntimeNode): boolean {
  return node.numbered('mcp_server_', PropertySinkPad).some((pad) => typeof pad.value === 'string' && pad.value !== '' && pad.value !== 'None');
}
