import type { Logger } from 'pino';
import type { OutboundPolicy } from '../../kernel/outbound/index.js';
import { AgentToolRunner, DEFAULT_AGENT_TOOL_TUNING, type AgentToolTuning } from './agent-tool-runner.js';
import type { ToolCallMessage } from '../../../contract/sdk.js';
import { ClientToolCalls } from './client-tool-calls.js';

/** A conversation's tools: calls the human's app runs (over the room), and the runner of every tool kind. */
export interface SessionTools {
  clientCalls: ClientToolCalls;
  runner: AgentToolRunner;
}

export interface SessionToolsOptions {
  /** Sends a `tool_call` message to the human's app (the room's `tool_call` topic). */
  send: (message: ToolCallMessage) => Promise<void>;
  /** Over `DEFAULT_AGENT_TOOL_TUNING`. */
  tuning?: Partial<AgentToolTuning> | undefined;
  /** Where `web_request` tools may point (default: public addresses only). */
  addressPolicy?: OutboundPolicy | undefined;
  logger: Logger;
}

/**
 * The tools of one conversation (a realtime session, an app run), with the server's tuning and outbound policy.
 *
 * @example
 * const tools = sessionTools({ send: (message) => room.sendData(JSON.stringify(message), { topic: TOOL_CALL_TOPIC }), logger });
 */
export function sessionTools(options: SessionToolsOptions): SessionTools {
  const tuning: AgentToolTuning = { ...DEFAULT_AGENT_TOOL_TUNING, ...options.tuning };
  const clientCalls = new ClientToolCalls(options.send, { ackMs: tuning.clientAckTimeoutMs, resultMs: tuning.clientResultTimeoutMs }, options.logger);
  const runner = new AgentToolRunner({
    clientCalls,
    addressPolicy: options.addressPolicy ?? { allowLoopback: false, allowPrivateNetworks: false },
    tuning,
    logger: options.logger,
  });
  return { clientCalls, runner };
}
