import type { ChatCompletionChunk, ChatCompletionUsage, ChatStreamError, FinishReason } from '../../../contract/chat.js';
import type { ResponseObject, ResponseUsage } from '../../../contract/responses-object.js';
import type { ResponseStreamEvent } from '../../../contract/responses-events.js';
import type { ResponseFunctionCall, ResponseOutputMessage } from '../../../contract/responses-items.js';
import type { ChatStreamEvent } from '../../kernel/ports/chat.js';
import { newId } from '../../store/ids.js';

type OutputCall = ResponseFunctionCall & { id: string; status: 'in_progress' | 'completed' | 'incomplete' };
type ToolCallDelta = NonNullable<ChatCompletionChunk['choices'][number]['delta']['tool_calls']>[number];
/** An event before its `sequence_number` is given. */
type Unnumbered = ResponseStreamEvent extends infer E ? (E extends ResponseStreamEvent ? Omit<E, 'sequence_number'> : never) : never;

/** OpenAI's usage shape from a chat completion's. */
export function responseUsage(usage: ChatCompletionUsage): ResponseUsage {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.total_tokens,
  };
}

/**
 * Turns a chat completion's stream (the gateway's events) into a response and its typed events: text becomes one
 * message item (`output_item.added`, `content_part.added`, `output_text.delta`s, then the `.done`s), each tool call a
 * `function_call` item (`function_call_arguments.delta`s, then `.done`), in the order the model produced them; the
 * finish reason decides `completed` or `incomplete`, an error event `failed`. Every event is numbered from 0.
 *
 * @example
 * const assembler = new ResponseAssembler(initial);
 * send(assembler.start());
 * for await (const event of chatEvents) send(assembler.push(event));
 * send(assembler.finish()); // then assembler.response is the final response
 */
export class ResponseAssembler {
  readonly response: ResponseObject;
  private sequence = 0;
  private message: { index: number; item: ResponseOutputMessage; text: string; refusal: string } | undefined;
  private readonly calls = new Map<number, { index: number; item: OutputCall }>();
  private openCall: number | undefined;
  private finishReason: FinishReason | undefined;
  private failure: ChatStreamError['error'] | undefined;

  constructor(initial: ResponseObject) {
    this.response = { ...initial, status: 'in_progress', output: [] };
  }

  /** `response.created` and `response.in_progress`. */
  start(): ResponseStreamEvent[] {
    return [this.numbered({ type: 'response.created', response: this.snapshot() }), this.numbered({ type: 'response.in_progress', response: this.snapshot() })];
  }

  /** The events one chat event stands for (often one, sometimes none). */
  push(event: ChatStreamEvent): ResponseStreamEvent[] {
    if (event.type === 'error') {
      this.failure = event.error.error;
      return [];
    }
    const { chunk } = event;
    if (chunk.usage) this.response.usage = responseUsage(chunk.usage);
    const choice = chunk.choices[0];
    if (!choice) return [];
    const out: Unnumbered[] = [];
    const { delta } = choice;
    if (delta.content) this.text(delta.content, out);
    if (delta.refusal) this.openMessage(out).refusal += delta.refusal;
    for (const call of delta.tool_calls ?? []) this.toolCall(call, out);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    return out.map((unnumbered) => this.numbered(unnumbered));
  }

  /** Closes the open items and ends with `response.completed`, `response.incomplete` or `response.failed`. */
  finish(): ResponseStreamEvent[] {
    const out: Unnumbered[] = [];
    this.closeMessage(out);
    this.closeCall(out);
    const reason = this.finishReason;
    if (this.failure) {
      this.response.status = 'failed';
      this.response.error = { code: this.failure.code ?? this.failure.type, message: this.failure.message };
      out.push({ type: 'response.failed', response: this.snapshot() });
    } else if (reason === 'length' || reason === 'content_filter') {
      this.response.status = 'incomplete';
      this.response.incomplete_details = { reason: reason === 'length' ? 'max_output_tokens' : 'content_filter' };
      out.push({ type: 'response.incomplete', response: this.snapshot() });
    } else {
      this.response.status = 'completed';
      out.push({ type: 'response.completed', response: this.snapshot() });
    }
    return out.map((unnumbered) => this.numbered(unnumbered));
  }

  private text(text: string, out: Unnumbered[]): void {
    const message = this.openMessage(out);
    message.text += text;
    out.push({ type: 'response.output_text.delta', output_index: message.index, item_id: message.item.id, content_index: 0, delta: text, logprobs: [] });
  }

  private openMessage(out: Unnumbered[]): NonNullable<ResponseAssembler['message']> {
    if (this.message) return this.message;
    this.closeCall(out);
    const item: ResponseOutputMessage = { type: 'message', id: newId('msg'), status: 'in_progress', role: 'assistant', content: [] };
    const index = this.response.output.push(item) - 1;
    this.message = { index, item, text: '', refusal: '' };
    const part = { type: 'output_text' as const, text: '', annotations: [] };
    out.push({ type: 'response.output_item.added', output_index: index, item: { ...item, content: [] } });
    out.push({ type: 'response.content_part.added', output_index: index, item_id: item.id, content_index: 0, part });
    return this.message;
  }

  private closeMessage(out: Unnumbered[]): void {
    const message = this.message;
    if (!message) return;
    this.message = undefined;
    const { index, item, text } = message;
    const part = { type: 'output_text' as const, text, annotations: [] };
    out.push({ type: 'response.output_text.done', output_index: index, item_id: item.id, content_index: 0, text, logprobs: [] });
    out.push({ type: 'response.content_part.done', output_index: index, item_id: item.id, content_index: 0, part });
    item.content = message.refusal ? [part, { type: 'refusal', refusal: message.refusal }] : [part];
    item.status = 'completed';
    out.push({ type: 'response.output_item.done', output_index: index, item: structuredClone(item) });
  }

  private toolCall(delta: ToolCallDelta, out: Unnumbered[]): void {
    let call = this.calls.get(delta.index);
    if (!call) {
      this.closeMessage(out);
      this.closeCall(out);
      const item: OutputCall = {
        type: 'function_call',
        id: newId('fc'),
        call_id: delta.id ?? newId('call'),
        name: delta.function?.name ?? '',
        arguments: '',
        status: 'in_progress',
      };
      call = { index: this.response.output.push(item) - 1, item };
      this.calls.set(delta.index, call);
      this.openCall = delta.index;
      out.push({ type: 'response.output_item.added', output_index: call.index, item: { ...item } });
    } else if (delta.function?.name) {
      call.item.name += delta.function.name;
    }
    const fragment = delta.function?.arguments;
    if (!fragment) return;
    call.item.arguments += fragment;
    out.push({ type: 'response.function_call_arguments.delta', output_index: call.index, item_id: call.item.id, delta: fragment });
  }

  private closeCall(out: Unnumbered[]): void {
    const call = this.openCall === undefined ? undefined : this.calls.get(this.openCall);
    this.openCall = undefined;
    if (!call) return;
    const { index, item } = call;
    item.status = 'completed';
    out.push({ type: 'response.function_call_arguments.done', output_index: index, item_id: item.id, name: item.name, arguments: item.arguments });
    out.push({ type: 'response.output_item.done', output_index: index, item: { ...item } });
  }

  private snapshot(): ResponseObject {
    return structuredClone(this.response);
  }

  private numbered(event: Unnumbered): ResponseStreamEvent {
    return { ...event, sequence_number: this.sequence++ };
  }
}
