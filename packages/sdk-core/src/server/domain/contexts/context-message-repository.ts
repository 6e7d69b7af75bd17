import type { Kysely } from 'kysely';
import type { ContextMessageContent, ContextMessageToolCall } from '../../../contract/contexts.js';
import type { Store } from '../../store/database.js';
import { keysetPage, type Page, type PageRequest } from '../../store/pagination.js';
import type { ContextMessageRow, Database } from '../../store/tables.js';

/** Optional fields of a message, kept together in the `extra` JSON column. */
export interface ContextMessageExtra {
  speaking_started_at?: string;
  speaking_ended_at?: string;
  tool_call_id?: string;
  tool_call_name?: string;
  tool_calls?: ContextMessageToolCall[];
  /** Kept for the advanced memory graph, which decides what to index from it. */
  advanced_memory?: boolean;
}

/** A message as stored: the role as created (including `custom`). */
export interface StoredContextMessage {
  id: string;
  contextId: string;
  project: string;
  human: string | null;
  role: string;
  content: ContextMessageContent[];
  extra: ContextMessageExtra;
  realtimeSession: string | null;
  createdAt: string;
}

type Executor = Kysely<Database>;

function toRow(message: StoredContextMessage): ContextMessageRow {
  return {
    id: message.id,
    context_id: message.contextId,
    project: message.project,
    human: message.human,
    role: message.role,
    content: JSON.stringify(message.content),
    extra: JSON.stringify(message.extra),
    realtime_session: message.realtimeSession,
    created_at: message.createdAt,
  };
}

/** Decodes a row of `context_messages`. */
export function toStoredMessage(row: ContextMessageRow): StoredContextMessage {
  return {
    id: row.id,
    contextId: row.context_id,
    project: row.project,
    human: row.human,
    role: row.role,
    content: JSON.parse(row.content) as ContextMessageContent[],
    extra: JSON.parse(row.extra) as ContextMessageExtra,
    realtimeSession: row.realtime_session,
    createdAt: row.created_at,
  };
}

/**
 * The messages of contexts, in the dedicated `context_messages` table (they grow without bound, unlike
 * the config-like documents). Order is chronological by (`created_at`, `id`); ids are ULIDs, so messages
 * created in the same millisecond still keep their insertion order.
 */
export class ContextMessageRepository {
  constructor(private readonly store: Store) {}

  async insert(messages: readonly StoredContextMessage[], executor: Executor = this.store.db): Promise<void> {
    if (messages.length === 0) return;
    // Batches keep each statement well under SQLite's bound-parameter limit.
    for (let start = 0; start < messages.length; start += 100) {
      await executor
        .insertInto('context_messages')
        .values(messages.slice(start, start + 100).map(toRow))
        .execute();
    }
  }

  async find(contextId: string, id: string): Promise<StoredContextMessage | undefined> {
    const row = await this.store.db.selectFrom('context_messages').selectAll().where('context_id', '=', contextId).where('id', '=', id).executeTakeFirst();
    return row ? toStoredMessage(row) : undefined;
  }

  /** The `count` most recent messages of a context, oldest first. */
  async latest(contextId: string, count: number, executor: Executor = this.store.db): Promise<StoredContextMessage[]> {
    const rows = await executor
      .selectFrom('context_messages')
      .selectAll()
      .where('context_id', '=', contextId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(count)
      .execute();
    return rows.reverse().map(toStoredMessage);
  }

  /** A page of a context's messages, oldest first, optionally only the given ids. */
  async list(contextId: string, options: PageRequest & { ids?: readonly string[] | undefined }): Promise<Page<StoredContextMessage>> {
    let base = this.store.db.selectFrom('context_messages').where('context_id', '=', contextId);
    if (options.ids !== undefined) base = base.where('id', 'in', options.ids.length > 0 ? [...options.ids] : ['']);
    return keysetPage(base, options, 'asc', toStoredMessage);
  }
}
