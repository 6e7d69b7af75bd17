import type { Transaction } from 'kysely';
import type { ContextAdvancedMemoryQueryResult } from '../../../../contract/contexts.js';
import { BadRequestError } from '../../../../errors/api-error.js';
import type { Store } from '../../../store/database.js';
import { lockRows } from '../../../store/dialect/index.js';
import type { Database } from '../../../store/tables.js';
import type { UsageService } from '../../usage/usage-service.js';
import type { StoredContextMessage } from '../context-message-repository.js';
import { ingestFacts } from './memory-ingestion.js';
import type { ExtractedFact, MemoryExtractor } from './memory-extractor.js';
import { MemoryGraphRepository } from './memory-graph-repository.js';
import { queryMemory } from './memory-query.js';
import { RuleBasedExtractor } from './rule-based-extractor.js';

export interface AdvancedMemoryOptions {
  /** Meters `memory_message_cnt` per ingested message and enforces its limit (omitted: neither). */
  usage?: Pick<UsageService, 'recordIn' | 'assertWithinLimit'>;
  /** Default: the offline {@link RuleBasedExtractor}. */
  extractor?: MemoryExtractor;
}

/** The speaker node of a message: its public role (`custom` reads as `system`). */
function speakerOf(role: string): string {
  return role === 'custom' ? 'system' : role;
}

/**
 * A context's advanced memory graph (decision 0065): messages appended with `advanced_memory: true`
 * are turned into facts (extraction runs before the caller's transaction, as it may call a model), then
 * written with the message in one transaction together with one `memory_message_cnt` usage record.
 *
 * @example
 * const facts = await memory.extract({ role: 'user', content: 'I live in Paris.' }, { project, human });
 * await store.transaction(async (trx) => { await messages.insert([message], trx); await memory.ingestIn(trx, message, facts); });
 */
export class AdvancedMemory {
  private readonly graph = new MemoryGraphRepository();
  private readonly extractor: MemoryExtractor;

  constructor(
    private readonly store: Store,
    private readonly options: AdvancedMemoryOptions = {},
  ) {
    this.extractor = options.extractor ?? new RuleBasedExtractor();
  }

  /**
   * Throws 400 `usage_limit_exceeded` when the human's `memory_message_cnt` limit leaves less than `count`
   * messages (before any extraction, which may cost model tokens).
   */
  async assertAllowance(owner: { project: string; human: string | null }, count: number): Promise<void> {
    if (count > 0) await this.options.usage?.assertWithinLimit(owner.project, owner.human, 'memory_message_cnt', count);
  }

  /** The facts of a message about to be appended (call it outside any transaction). */
  extract(message: { role: string; content: string }, owner: { project: string; human: string | null }, signal?: AbortSignal): Promise<ExtractedFact[]> {
    return this.extractor.extract({ text: message.content, speaker: speakerOf(message.role), owner }, signal ? { signal } : {});
  }

  /** Writes the facts of `message` into its context's graph and meters the message, in `trx`. */
  async ingestIn(trx: Transaction<Database>, message: StoredContextMessage, facts: readonly ExtractedFact[]): Promise<void> {
    // PostgreSQL: one ingestion per context at a time, so two contradicting messages cannot both stay valid.
    await lockRows(this.store, trx.selectFrom('documents').select('id').where('kind', '=', 'context').where('id', '=', message.contextId));
    await ingestFacts(trx, this.graph, { contextId: message.contextId, project: message.project }, message.id, message.createdAt, facts);
    await this.options.usage?.recordIn(trx, { project: message.project, human: message.human }, 'memory_message_cnt', 1, {
      context: message.contextId,
      message: message.id,
      facts: facts.length,
    });
  }

  /** The subgraph relevant to a new user message (the caller checks that the context is visible). */
  async query(contextId: string, newUserMessage: string): Promise<ContextAdvancedMemoryQueryResult> {
    if (newUserMessage.trim() === '') throw new BadRequestError('new_user_message: must not be blank');
    return queryMemory(this.store.db, this.graph, contextId, newUserMessage);
  }
}
