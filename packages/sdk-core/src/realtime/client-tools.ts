import type { ClientToolCall, ToolCallMessage } from '../contract/sdk.js';
import type { ToolDefinition } from '../contract/tools.js';

/** What a client tool handler is given besides the arguments. */
export interface ClientToolContext {
  /** Aborted when the agent cancels the call (the human interrupted it) or the session ends. */
  signal: AbortSignal;
  call: ClientToolCall;
  definition: ToolDefinition;
}

/**
 * Runs one `client_app` tool in the app: resolves with the result (any JSON value) or throws; the
 * error's message is what the agent's model is told.
 */
export type ClientToolHandler = (args: Record<string, unknown>, context: ClientToolContext) => unknown;

/** A tool call the agent asked this app to run, as the session's snapshot shows it while it runs. */
export interface PendingClientToolCall {
  call: ClientToolCall;
  definition: ToolDefinition;
}

type ToolCallRequest = Extract<ToolCallMessage, { type: 'tool_call_request' }>['payload'];

/**
 * The app's side of client-side tools: holds the handlers by tool name, and for each request from the
 * agent acknowledges it at once, runs the handler, and sends `result` (or `error` when the handler throws
 * or no handler is registered for the tool). A `cancel` from the agent aborts the handler's signal; a
 * cancelled call sends nothing more.
 *
 * @example
 * const tools = new ClientToolRunner((message, agent) => link.publish('tool_call', JSON.stringify(message), [agent]));
 * tools.register('get_location', async () => ({ city: 'Paris' }));
 * void tools.start(request, 'agent'); // on a tool_call_request
 */
export class ClientToolRunner {
  private readonly handlers = new Map<string, ClientToolHandler>();
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly send: (message: ToolCallMessage, agentIdentity: string) => Promise<void>,
    private readonly settled: (callId: string) => void = () => {},
  ) {}

  /** Registers the handler of a tool (replacing an earlier one); returns the unregister function. */
  register(name: string, handler: ClientToolHandler): () => void {
    this.handlers.set(name, handler);
    return () => {
      if (this.handlers.get(name) === handler) this.handlers.delete(name);
    };
  }

  has(name: string): boolean {
    return this.handlers.has(name);
  }

  /** Acknowledges a request and runs its handler; resolves once its answer was sent (or it was cancelled). */
  async start(request: ToolCallRequest, agentIdentity: string): Promise<void> {
    const id = request.tool_call.id;
    if (this.running.has(id)) return;
    const controller = new AbortController();
    this.running.set(id, controller);
    try {
      await this.send({ type: 'initiate_ack', call_id: id }, agentIdentity).catch(() => {});
      let answer: ToolCallMessage;
      try {
        const handler = this.handlers.get(request.tool_call.function.name);
        if (!handler) throw new Error(`this app has no handler for the tool '${request.tool_call.function.name}'`);
        const value: unknown = await handler(request.tool_call.function.arguments, {
          signal: controller.signal,
          call: request.tool_call,
          definition: request.tool_definition,
        });
        answer = { type: 'result', call_id: id, result: value === undefined ? null : value, error: null };
      } catch (error) {
        answer = { type: 'result', call_id: id, result: null, error: error instanceof Error ? error.message || error.name : String(error) };
      }
      if (!controller.signal.aborted) await this.send(answer, agentIdentity).catch(() => {});
    } finally {
      this.running.delete(id);
      this.settled(id);
    }
  }

  /** The agent cancelled a call: its handler's signal aborts and no answer is sent. */
  cancel(callId: string): void {
    this.running.get(callId)?.abort(new DOMException('the agent cancelled the tool call', 'AbortError'));
  }

  /** Cancels every running call (the session ended). */
  cancelAll(): void {
    for (const id of [...this.running.keys()]) this.cancel(id);
  }
}
