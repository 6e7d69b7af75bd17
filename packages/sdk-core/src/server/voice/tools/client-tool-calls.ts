import type { Logger } from 'pino';
import type { ClientToolCall, ToolCallMessage } from '../../../contract/sdk.js';
import type { ToolDefinition } from '../../../contract/tools.js';
import { toolError, type ToolResult } from './tool-result.js';

export interface ClientToolTimeouts {
  /** The client must acknowledge a request within this long (wire protocol: 5 s). */
  ackMs: number;
  /** The client must answer within this long of the request (wire protocol: 60 s). */
  resultMs: number;
}

interface PendingCall {
  settle: (result: ToolResult) => void;
  acked: boolean;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * The agent's side of client-side tools (`client_app` destination): sends `tool_call_request`s to the
 * human's app on topic `tool_call`, and matches its `initiate_ack` and `result` messages to the pending
 * calls. A missing ack or result becomes an error result (and the call is cancelled on the client); the
 * turn's abort (barge-in, stop) sends `{type: "cancel"}` and rejects with the abort reason.
 *
 * @example
 * const calls = new ClientToolCalls((message) => connection.sendData(JSON.stringify(message), { topic: TOOL_CALL_TOPIC }), { ackMs: 5000, resultMs: 60_000 }, logger);
 * // on a `tool_call` packet from the human: calls.receive(packet.payload)
 * const result = await calls.call(definition, { id: 'call_1', tool_definition_id: definition.id, function: { name, arguments } }, signal);
 */
export class ClientToolCalls {
  private readonly pending = new Map<string, PendingCall>();

  constructor(
    private readonly send: (message: ToolCallMessage) => Promise<void>,
    private readonly timeouts: ClientToolTimeouts,
    private readonly logger: Logger,
  ) {}

  /** Calls pending right now (ids). */
  get pendingIds(): string[] {
    return [...this.pending.keys()];
  }

  call(definition: ToolDefinition, call: ClientToolCall, signal: AbortSignal): Promise<ToolResult> {
    signal.throwIfAborted();
    const id = call.id;
    if (this.pending.has(id)) return Promise.resolve(toolError(`a tool call with id ${id} is already pending`));
    return new Promise<ToolResult>((resolve, reject) => {
      const timers: NodeJS.Timeout[] = [];
      const finish = () => {
        for (const timer of timers) clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        this.pending.delete(id);
      };
      const cancel = () =>
        void this.send({ type: 'cancel', call_id: id }).catch((error: unknown) =>
          this.logger.debug({ err: error, call: id }, 'could not cancel a client tool call'),
        );
      const entry: PendingCall = {
        acked: false,
        settle: (result) => {
          finish();
          resolve(result);
        },
      };
      const aborted = () => {
        finish();
        cancel();
        reject(signal.reason instanceof Error ? signal.reason : new DOMException('the tool call was cancelled', 'AbortError'));
      };
      signal.addEventListener('abort', aborted, { once: true });
      this.pending.set(id, entry);
      timers.push(
        setTimeout(() => {
          if (entry.acked) return;
          cancel();
          entry.settle(toolError(`the client app did not acknowledge the tool call within ${seconds(this.timeouts.ackMs)}`));
        }, this.timeouts.ackMs),
        setTimeout(() => {
          cancel();
          entry.settle(toolError(`the client app did not answer the tool call within ${seconds(this.timeouts.resultMs)}`));
        }, this.timeouts.resultMs),
      );
      this.send({ type: 'tool_call_request', payload: { type: 'initiate_request', tool_definition: definition, tool_call: call } }).catch((error: unknown) => {
        if (!this.pending.has(id)) return;
        this.logger.debug({ err: error, call: id }, 'could not send a client tool call');
        entry.settle(toolError(`the tool call could not be sent to the client app (${error instanceof Error ? error.message : String(error)})`));
      });
    });
  }

  /** A `tool_call` message from the human's app. Unknown or finished call ids are ignored. */
  receive(message: ToolCallMessage): void {
    if (message.type !== 'initiate_ack' && message.type !== 'result') return;
    const entry = this.pending.get(message.call_id);
    if (!entry) return;
    if (message.type === 'initiate_ack') {
      entry.acked = true;
      return;
    }
    if (message.error !== null) entry.settle(toolError(message.error));
    else entry.settle({ ok: true, value: message.result });
  }
}
