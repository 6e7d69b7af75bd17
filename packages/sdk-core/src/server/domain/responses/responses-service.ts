import type { ChatCompletionRequest } from '../../../contract/chat.js';
import type { ResponseCreateRequest, ResponseItemsQuery } from '../../../contract/responses.js';
import type { ResponseObject } from '../../../contract/responses-object.js';
import type { ResponseStreamEvent } from '../../../contract/responses-events.js';
import type { ResponseItem, ResponseItemList } from '../../../contract/responses-items.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { ChatPort } from '../../kernel/ports/chat.js';
import type { Principal } from '../../kernel/principal.js';
import { newId } from '../../store/ids.js';
import { toChatMessages, type ConversationItem } from './chat-messages.js';
import { chatRequestOf, initialResponse } from './chat-request.js';
import { responseFromCompletion } from './completion-response.js';
import { normalizeInput } from './input-items.js';
import { ResponseAssembler } from './response-assembler.js';
import type { ResponseRepository } from './response-repository.js';

export interface ResponsesServiceDependencies {
  /** The LLM gateway: every response is one metered, limited chat call as the caller. */
  chat: ChatPort;
  repository: ResponseRepository;
}

/** A response being made: its stored input items, the chat call it stands for and the response it starts as. */
interface PreparedResponse {
  items: ResponseItem[];
  chatRequest: ChatCompletionRequest;
  initial: ResponseObject;
  store: boolean;
}

/**
 * OpenAI's Responses API over the chat gateway (decision 0096): a response's conversation (the stored turns of its
 * `previous_response_id` chain, its `instructions` and `input`) becomes chat messages for the same LLM, and the
 * completion becomes the response's output items, whole or as typed events. Responses with `store` (the default) are
 * kept for their caller only, so conversations continue per project and human.
 *
 * @example
 * const response = await responses.create(principal, request, { signal });
 * for await (const event of await responses.stream(principal, { ...request, stream: true }, { signal })) send(event);
 */
export class ResponsesService {
  constructor(private readonly dependencies: ResponsesServiceDependencies) {}

  /** A whole response; failures answer with a status (400, 404, 429, 502) as chat completions do. */
  async create(principal: Principal, request: ResponseCreateRequest, options: { signal: AbortSignal }): Promise<ResponseObject> {
    const prepared = await this.prepare(principal, request, false);
    const completion = await this.dependencies.chat.complete(principal, prepared.chatRequest, options);
    const response = responseFromCompletion(prepared.initial, completion);
    if (prepared.store) await this.dependencies.repository.save(principal, response, prepared.items);
    return response;
  }

  /**
   * A streamed response. Resolves once the model produced its first delta (failures until then reject, so the
   * caller answers with a status); then the events run to `response.completed` (or `incomplete`, or `failed` when the
   * model failed mid-answer). A stored response is saved before its last event is yielded, so it can be retrieved and
   * continued as soon as the client saw it end; one whose client went away is not saved.
   */
  async stream(principal: Principal, request: ResponseCreateRequest, options: { signal: AbortSignal }): Promise<AsyncIterable<ResponseStreamEvent>> {
    const prepared = await this.prepare(principal, request, true);
    const chatEvents = await this.dependencies.chat.stream(principal, prepared.chatRequest, options);
    const repository = this.dependencies.repository;
    const assembler = new ResponseAssembler(prepared.initial);
    return (async function* events(): AsyncGenerator<ResponseStreamEvent> {
      yield* assembler.start();
      for await (const event of chatEvents) yield* assembler.push(event);
      const last = assembler.finish();
      if (options.signal.aborted) return;
      if (prepared.store) await repository.save(principal, assembler.response, prepared.items);
      yield* last;
    })();
  }

  retrieve(principal: Principal, id: string): Promise<ResponseObject> {
    return this.dependencies.repository.find(principal, id);
  }

  delete(principal: Principal, id: string): Promise<void> {
    return this.dependencies.repository.delete(principal, id);
  }

  inputItems(principal: Principal, id: string, query: ResponseItemsQuery): Promise<ResponseItemList> {
    return this.dependencies.repository.items(principal, id, query);
  }

  private async prepare(principal: Principal, request: ResponseCreateRequest, stream: boolean): Promise<PreparedResponse> {
    const items = normalizeInput(request.input);
    const history = await this.history(principal, request.previous_response_id);
    const field = (index: number) => (index < history.length ? 'previous_response_id' : `input[${index - history.length}]`);
    const messages = toChatMessages(request.instructions, [...history, ...items], field);
    const initial = initialResponse(newId('resp'), request, Math.floor(Date.now() / 1000));
    return { items, chatRequest: chatRequestOf(request, messages, stream), initial, store: request.store ?? true };
  }

  /** The items of the conversation `previous` ends, oldest first: each turn's input, then its output. */
  private async history(principal: Principal, previous: string | null | undefined): Promise<ConversationItem[]> {
    if (!previous) return [];
    const turns = await this.dependencies.repository.conversation(principal, previous);
    if (!turns) throw new BadRequestError(`Invalid body: previous_response_id: response '${previous}' not found`);
    return turns.flatMap((turn): ConversationItem[] => [...turn.input, ...turn.output]);
  }
}
