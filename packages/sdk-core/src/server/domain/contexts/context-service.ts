import {
  LATEST_MESSAGES_COUNT,
  type Context,
  type ContextAdvancedMemoryQueryResult,
  type ContextCreateRequest,
  type ContextMessage,
  type ContextMessageCreateParams,
} from '../../../contract/contexts.js';
import { BadRequestError, NotFoundError } from '../../../errors/api-error.js';
import type { Transaction } from 'kysely';
import type { Store } from '../../store/database.js';
import type { Database } from '../../store/tables.js';
import { DocumentStore, HUMAN_CONTEXT_QUOTA, quotaFor, type StoredDocument } from '../../store/document-store.js';
import { newId, nowIso } from '../../store/ids.js';
import type { Page, PageRequest } from '../../store/pagination.js';
import { assertWritable, found, ownerOf, scopeOf } from '../access.js';
import type { Principal } from '../../kernel/principal.js';
import { ContextMessageRepository, type ContextMessageExtra, type StoredContextMessage } from './context-message-repository.js';
import { AdvancedMemory } from './memory/advanced-memory.js';
import type { ExtractedFact } from './memory/memory-extractor.js';

/** What a context document stores besides its row: the persona and scenario it was created with (analytics). */
export interface ContextData {
  persona: string | null;
  scenario: string | null;
}

/** Options of `appendMessage` for server-side writers such as realtime sessions. */
export interface AppendMessageOptions {
  /** The realtime session the message was spoken in. */
  realtimeSession?: string;
  /** When the message happened (default: now). */
  createdAt?: string;
  /**
   * Writes that must commit with the message or not at all (e.g. its `realtime_session.message_committed`
   * event in the webhook outbox), run in the message's transaction.
   */
  alongside?: (transaction: Transaction<Database>, saved: ContextMessage) => Promise<unknown>;
}

/**
 * Turns a stored message into its public shape. `custom` messages are shown as `system` because the
 * public message roles have no `custom` (see docs/decisions/0010-custom-message-role.md).
 */
export function toContextMessage(message: StoredContextMessage): ContextMessage {
  const { extra } = message;
  return {
    id: message.id,
    created_at: message.createdAt,
    role: message.role === 'custom' ? 'system' : (message.role as ContextMessage['role']),
    content: message.content,
    ...(extra.speaking_started_at !== undefined ? { speaking_started_at: extra.speaking_started_at } : {}),
    ...(extra.speaking_ended_at !== undefined ? { speaking_ended_at: extra.speaking_ended_at } : {}),
    ...(message.realtimeSession !== null ? { realtime_session: message.realtimeSession } : {}),
    ...(extra.tool_calls !== undefined ? { tool_calls: extra.tool_calls } : {}),
    ...(extra.tool_call_id !== undefined ? { tool_call_id: extra.tool_call_id } : {}),
    ...(extra.tool_call_name !== undefined ? { tool_call_name: extra.tool_call_name } : {}),
  };
}

function extraOf(params: ContextMessageCreateParams): ContextMessageExtra {
  const extra: ContextMessageExtra = {};
  if (params.speaking_started_at !== undefined) extra.speaking_started_at = params.speaking_started_at;
  if (params.speaking_ended_at !== undefined) extra.speaking_ended_at = params.speaking_ended_at;
  if (params.tool_call_id !== undefined) extra.tool_call_id = params.tool_call_id;
  if (params.tool_call_name !== undefined) extra.tool_call_name = params.tool_call_name;
  if (params.tool_calls !== undefined) extra.tool_calls = params.tool_calls;
  if (params.advanced_memory !== undefined) extra.advanced_memory = params.advanced_memory;
  return extra;
}

/** Conversation histories: contexts (documents of kind `context`) and their messages. */
export class ContextService {
  private readonly contexts: DocumentStore<ContextData>;
  private readonly personas: DocumentStore<unknown>;
  private readonly scenarios: DocumentStore<unknown>;
  readonly messages: ContextMessageRepository;
  /** The advanced memory graph fed by messages appended with `advanced_memory: true`. */
  readonly memory: AdvancedMemory;

  constructor(
    private readonly store: Store,
    memory?: AdvancedMemory,
  ) {
    this.contexts = new DocumentStore(store, 'context');
    this.personas = new DocumentStore(store, 'persona');
    this.scenarios = new DocumentStore(store, 'scenario');
    this.messages = new ContextMessageRepository(store);
    this.memory = memory ?? new AdvancedMemory(store);
  }

  /** The memory facts of each message that asks for advanced memory (undefined for the others). */
  private async memoryFacts(
    messages: readonly ContextMessageCreateParams[],
    owner: { project: string; human: string | null },
  ): Promise<Array<ExtractedFact[] | undefined>> {
    await this.memory.assertAllowance(owner, messages.filter((params) => params.advanced_memory === true).length);
    return Promise.all(messages.map((params) => (params.advanced_memory === true ? this.memory.extract(params, owner) : Promise.resolve(undefined))));
  }

  private async toContext(document: StoredDocument<ContextData>): Promise<Context> {
    const latest = await this.messages.latest(document.id, LATEST_MESSAGES_COUNT);
    return {
      id: document.id,
      created_at: document.createdAt,
      project: document.project ?? '',
      human: document.human,
      latest_messages: latest.map(toContextMessage),
    };
  }

  private newMessage(context: StoredDocument<ContextData>, params: ContextMessageCreateParams, options: AppendMessageOptions): StoredContextMessage {
    return {
      id: newId('msg'),
      contextId: context.id,
      project: context.project ?? '',
      // Messages belong to the context's human, so analytics and scoping follow the conversation.
      human: context.human,
      role: params.role,
      content: [{ type: 'text', text: params.content }],
      extra: extraOf(params),
      realtimeSession: options.realtimeSession ?? null,
      createdAt: options.createdAt ?? nowIso(),
    };
  }

  private async findContext(principal: Principal, id: string): Promise<StoredDocument<ContextData>> {
    return found(await this.contexts.find(id, scopeOf(principal)), 'context', id);
  }

  /**
   * Creates a context, optionally tied to a persona and a scenario and seeded with messages.
   *
   * @example
   * const context = await services.contexts.createContext(principal, { messages: [{ role: 'user', content: 'Hi' }] });
   */
  async createContext(principal: Principal, input: ContextCreateRequest): Promise<Context> {
    const visible = scopeOf(principal, { includeGlobal: true });
    if (input.persona !== undefined && !(await this.personas.find(input.persona, visible))) {
      throw new BadRequestError(`persona: no persona with id '${input.persona}'`);
    }
    if (input.scenario !== undefined && !(await this.scenarios.find(input.scenario, visible))) {
      throw new BadRequestError(`scenario: no scenario with id '${input.scenario}'`);
    }
    const facts = await this.memoryFacts(input.messages ?? [], { project: principal.project, human: ownerOf(principal) });
    const document = await this.store.transaction(async (transaction) => {
      const inserted = await this.contexts.insert(
        {
          id: newId('context'),
          project: principal.project,
          human: ownerOf(principal),
          data: { persona: input.persona ?? null, scenario: input.scenario ?? null },
        },
        transaction,
        quotaFor(principal, HUMAN_CONTEXT_QUOTA),
      );
      const createdAt = inserted.createdAt;
      const messages = (input.messages ?? []).map((params) => this.newMessage(inserted, params, { createdAt }));
      await this.messages.insert(messages, transaction);
      for (const [index, message] of messages.entries()) {
        const messageFacts = facts[index];
        if (messageFacts) await this.memory.ingestIn(transaction, message, messageFacts);
      }
      return inserted;
    });
    return this.toContext(document);
  }

  async retrieve(principal: Principal, id: string): Promise<Context> {
    return this.toContext(await this.findContext(principal, id));
  }

  /** The visible contexts among `ids`, in the order asked for; unknown ids are left out. */
  async listByIds(principal: Principal, ids: readonly string[]): Promise<Page<Context>> {
    const unique = [...new Set(ids)];
    const documents = await this.contexts.all(scopeOf(principal), { ids: unique });
    const byId = new Map(documents.map((document) => [document.id, document]));
    const ordered = unique.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    const values = await Promise.all(ordered.map((document) => this.toContext(document)));
    return { values, total_count: values.length, next_page: null };
  }

  /** The persona and scenario a context was created with. */
  async settings(principal: Principal, id: string): Promise<ContextData> {
    return (await this.findContext(principal, id)).data;
  }

  /**
   * Appends a message to a context (the HTTP operation, and realtime sessions saving transcripts).
   * A human-scoped caller may only append to its own human's contexts.
   *
   * @example
   * await services.contexts.appendMessage(principal, contextId, { role: 'assistant', content: 'Hello!' }, { realtimeSession });
   */
  async appendMessage(
    principal: Principal,
    contextId: string,
    params: ContextMessageCreateParams,
    options: AppendMessageOptions = {},
  ): Promise<ContextMessage> {
    const context = await this.findContext(principal, contextId);
    assertWritable(context, principal, 'context');
    const message = this.newMessage(context, params, options);
    const [facts] = await this.memoryFacts([params], { project: context.project ?? '', human: context.human });
    const saved = toContextMessage(message);
    if (facts === undefined && !options.alongside) {
      await this.messages.insert([message]);
    } else {
      // The message, its facts, its memory_message_cnt usage and the caller's writes commit together.
      await this.store.transaction(async (transaction) => {
        await this.messages.insert([message], transaction);
        if (facts !== undefined) await this.memory.ingestIn(transaction, message, facts);
        await options.alongside?.(transaction, saved);
      });
    }
    return saved;
  }

  /**
   * The part of a context's advanced memory graph relevant to a new user message (404 for a context the
   * caller cannot see, 400 for a blank message).
   */
  async queryMemory(principal: Principal, contextId: string, newUserMessage: string): Promise<ContextAdvancedMemoryQueryResult> {
    await this.findContext(principal, contextId);
    return this.memory.query(contextId, newUserMessage);
  }

  async retrieveMessage(principal: Principal, contextId: string, messageId: string): Promise<ContextMessage> {
    await this.findContext(principal, contextId);
    const message = await this.messages.find(contextId, messageId);
    if (!message) throw new NotFoundError(`message '${messageId}' not found in context '${contextId}'`);
    return toContextMessage(message);
  }

  /** A page of a context's messages, oldest first. */
  async listMessages(principal: Principal, contextId: string, options: PageRequest & { ids?: readonly string[] | undefined }): Promise<Page<ContextMessage>> {
    await this.findContext(principal, contextId);
    const page = await this.messages.list(contextId, options);
    return { ...page, values: page.values.map(toContextMessage) };
  }
}
