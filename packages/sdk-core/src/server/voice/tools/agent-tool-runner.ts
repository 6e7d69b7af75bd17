import type { Logger } from 'pino';
import type { ChatMessageToolCall } from '../../../contract/chat.js';
import type { ToolDefinition } from '../../../contract/tools.js';
import type { OutboundPolicy } from '../../kernel/outbound/index.js';
import type { ClientToolCalls } from './client-tool-calls.js';
import { parseToolArguments } from './tool-arguments.js';
import { toolError, type ToolResult } from './tool-result.js';
import { callWebRequestTool } from './web-request-tool.js';

/** Timing and bounds of tool calls in a session. */
export interface AgentToolTuning {
  /** A `web_request` tool's URL must answer within this long. */
  webRequestTimeoutMs: number;
  /** A `client_app` tool must be acknowledged within this long (wire protocol: 5 s). */
  clientAckTimeoutMs: number;
  /** A `client_app` tool must answer within this long of the request (wire protocol: 60 s). */
  clientResultTimeoutMs: number;
  /** Rounds of tool calls in one turn before the model must answer without tools. */
  maxRoundsPerTurn: number;
}

export const DEFAULT_AGENT_TOOL_TUNING: AgentToolTuning = {
  webRequestTimeoutMs: 10_000,
  clientAckTimeoutMs: 5_000,
  clientResultTimeoutMs: 60_000,
  maxRoundsPerTurn: 4,
};

export interface AgentToolRunnerDependencies {
  clientCalls: ClientToolCalls;
  /** Where `web_request` URLs may point (the LLM gateway's loopback/private network flags, or an outbound guard). */
  addressPolicy: OutboundPolicy;
  tuning: AgentToolTuning;
  logger: Logger;
}

/**
 * Runs the model's tool calls against the session's tool definitions: `web_request` tools by an HTTP POST
 * to their URL, `client_app` tools through the human's app. Unknown tools and arguments that are not a
 * JSON object are error results; so is every failure of the call itself. Rejects only when `signal` aborts.
 *
 * @example
 * const result = await runner.run(config.generative.tool_definitions, call, signal);
 */
export class AgentToolRunner {
  constructor(private readonly dependencies: AgentToolRunnerDependencies) {}

  get tuning(): AgentToolTuning {
    return this.dependencies.tuning;
  }

  async run(definitions: readonly ToolDefinition[], call: ChatMessageToolCall, signal: AbortSignal): Promise<ToolResult> {
    const started = performance.now();
    const result = await this.dispatch(definitions, call, signal);
    this.dependencies.logger.debug({ tool: call.function.name, call: call.id, ok: result.ok, ms: Math.round(performance.now() - started) }, 'tool call');
    return result;
  }

  private async dispatch(definitions: readonly ToolDefinition[], call: ChatMessageToolCall, signal: AbortSignal): Promise<ToolResult> {
    const definition = definitions.find((candidate) => candidate.name === call.function.name);
    if (!definition) return toolError(`there is no tool named '${call.function.name}' in this session`);
    const args = parseToolArguments(call.function.arguments);
    if (!args) return toolError('the arguments were not a JSON object');
    const destination = definition.call_settings.destination;
    if (destination.type === 'web_request') {
      const { addressPolicy, tuning } = this.dependencies;
      return callWebRequestTool(destination.url, definition.name, args, {
        policy: addressPolicy,
        timeoutMs: tuning.webRequestTimeoutMs,
        signal,
      });
    }
    return this.dependencies.clientCalls.call(
      definition,
      { id: call.id, tool_definition_id: definition.id, function: { name: definition.name, arguments: args } },
      signal,
    );
  }
}
