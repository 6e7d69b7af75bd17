import type { Kysely, Transaction } from 'kysely';
import type { RealtimeSession, RealtimeSessionConfig, RealtimeSessionData, RealtimeSessionState } from '../../../contract/realtime.js';
import type { Store } from '../../store/database.js';
import { DocumentStore, documentFromRow, HUMAN_CONTEXT_QUOTA, quotaFor, type AccessScope, type StoredDocument } from '../../store/document-store.js';
import { keysetPage, type Page, type PageRequest } from '../../store/pagination.js';
import type { Database, DocumentRow } from '../../store/tables.js';
import type { Principal } from '../../kernel/principal.js';
import type { AgentStopReason } from '../../kernel/ports/agent-session-host.js';

/** Document kind of realtime sessions in the `documents` table. */
export const REALTIME_SESSION_KIND = 'realtime_session';

/** What a realtime session document stores besides its row (id, project, human, created_at). */
export interface RealtimeSessionDocument {
  state: RealtimeSessionState;
  simulated: boolean;
  /** The configuration as resolved (objects, not ids); the LLM's header values masked. */
  config: RealtimeSessionConfig;
  data: RealtimeSessionData[];
  ended_at?: string;
  /** Why the session ended (shown as `_extra.stop_reason`). */
  stop_reason?: AgentStopReason;
  _extra?: Record<string, unknown>;
  /** The room identity of the human's join token (internal; not part of the public session). */
  human_identity: string;
}

export type StoredRealtimeSession = StoredDocument<RealtimeSessionDocument>;

/** The public shape of a stored session. */
export function toRealtimeSession(document: StoredRealtimeSession): RealtimeSession {
  const { data } = document;
  return {
    id: document.id,
    state: data.state,
    created_at: document.createdAt,
    project: document.project ?? '',
    simulated: data.simulated,
    config: data.config,
    data: data.data,
    ...(data.ended_at !== undefined ? { ended_at: data.ended_at } : {}),
    ...(document.human !== null ? { human: document.human } : {}),
    ...(data._extra !== undefined || data.stop_reason !== undefined
      ? { _extra: { ...data._extra, ...(data.stop_reason !== undefined ? { stop_reason: data.stop_reason } : {}) } }
      : {}),
  };
}

/**
 * Who may see a session: the project's API key (no human) sees every session of the project; a
 * human-scoped caller (usage token, or API key with `x-human-id`) sees only that human's sessions. Unlike
 * config-like resources, a session started without a human is not "shared": it is somebody's conversation.
 */
function ownsOrProjectWide(principal: Principal, document: StoredRealtimeSession): boolean {
  return principal.human === null || document.human === principal.human;
}

/** The scope a session is looked up in for a caller (then narrowed by {@link ownsOrProjectWide}). */
function scopeFor(principal: Pick<Principal, 'project' | 'human'>): AccessScope {
  return { project: principal.project, human: principal.human };
}

/**
 * Realtime sessions as documents of kind {@link REALTIME_SESSION_KIND}: insert, scoped reads, locked
 * read-modify-write (with the transaction, so webhooks are enqueued with the change) and the newest-first list.
 */
export class RealtimeSessionRepository {
  private readonly documents: DocumentStore<RealtimeSessionDocument>;

  constructor(private readonly store: Store) {
    this.documents = new DocumentStore(store, REALTIME_SESSION_KIND);
  }

  /** Inserts a new session under the caller's human (contexts' quota: sessions accumulate with normal use). */
  async insert(
    principal: Principal,
    session: { id: string; human: string | null; data: RealtimeSessionDocument },
    transaction: Transaction<Database>,
  ): Promise<StoredRealtimeSession> {
    return this.documents.insert(
      { id: session.id, project: principal.project, human: session.human, data: session.data },
      transaction,
      quotaFor(principal, HUMAN_CONTEXT_QUOTA),
    );
  }

  /** The session when `principal` may see it. */
  async find(principal: Principal, id: string): Promise<StoredRealtimeSession | undefined> {
    const document = await this.documents.find(id, scopeFor(principal));
    return document && ownsOrProjectWide(principal, document) ? document : undefined;
  }

  /**
   * Locked read-modify-write (see `DocumentStore.update`). `mutate` returns the new data, or undefined to
   * leave the document untouched (nothing is written). `{ project }` instead of a principal is the server
   * itself (events from the agent). Undefined when the session is absent or not visible; otherwise the
   * document before and after (the same object when unchanged).
   */
  async update(
    who: { principal: Principal } | { project: string },
    id: string,
    mutate: (current: StoredRealtimeSession, transaction: Transaction<Database>) => Promise<RealtimeSessionDocument | undefined>,
  ): Promise<{ previous: StoredRealtimeSession; current: StoredRealtimeSession } | undefined> {
    const scope = 'principal' in who ? scopeFor(who.principal) : { project: who.project, human: null };
    let previous: StoredRealtimeSession | undefined;
    try {
      const updated = await this.documents.update(id, scope, async (current, transaction) => {
        if ('principal' in who && !ownsOrProjectWide(who.principal, current)) throw new NoWrite(undefined);
        const next = await mutate(current, transaction);
        if (next === undefined) throw new NoWrite(current);
        previous = current;
        return next;
      });
      return updated && previous ? { previous, current: updated } : undefined;
    } catch (error) {
      if (!(error instanceof NoWrite)) throw error;
      return error.document ? { previous: error.document, current: error.document } : undefined;
    }
  }

  /** Deletes a session `principal` may see (the row itself: nothing of the conversation is kept). Returns whether it existed. */
  async delete(principal: Principal, id: string, transaction: Transaction<Database>): Promise<boolean> {
    const document = await this.find(principal, id);
    return document !== undefined && (await this.documents.delete(id, scopeFor(principal), {}, transaction));
  }

  /** A page of the sessions `principal` may see, newest first. */
  async list(principal: Principal, request: PageRequest): Promise<Page<StoredRealtimeSession>> {
    const db: Kysely<Database> = this.store.db;
    let base = db.selectFrom('documents').where('kind', '=', REALTIME_SESSION_KIND).where('project', '=', principal.project).where('deleted_at', 'is', null);
    if (principal.human !== null) base = base.where('human', '=', principal.human);
    return keysetPage(base, request, 'desc', toStoredSession);
  }
}

/** Ends a read-modify-write without writing (rolls its transaction back). */
class NoWrite extends Error {
  constructor(readonly document: StoredRealtimeSession | undefined) {
    super('no write');
  }
}

function toStoredSession(row: DocumentRow): StoredRealtimeSession {
  return documentFromRow<RealtimeSessionDocument>(row);
}
