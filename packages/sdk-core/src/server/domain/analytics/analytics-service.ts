import { MAX_ANALYTICS_ROWS, type AnalyticsConversationMessage } from '../../../contract/analytics.js';
import type { ContextMessageContent } from '../../../contract/contexts.js';
import type { Store } from '../../store/database.js';
import type { Principal } from '../../kernel/principal.js';
import type { ContextData } from '../contexts/context-service.js';

export interface AnalyticsRange {
  /** Inclusive start, any ISO 8601 date-time. */
  startDate: string;
  /** Inclusive end, any ISO 8601 date-time. */
  endDate: string;
}

function textOf(content: ContextMessageContent[]): string {
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function parseContextData(data: string | null): Partial<ContextData> {
  if (data === null) return {};
  try {
    return JSON.parse(data) as Partial<ContextData>;
  } catch {
    return {};
  }
}

/** Read-only reports over conversation history. */
export class AnalyticsService {
  constructor(private readonly store: Store) {}

  /**
   * Context messages created in a range, oldest first, at most `MAX_ANALYTICS_ROWS`, with the persona and
   * scenario of their context. A human-scoped caller (usage token, or API key with `x-human-id`) sees only
   * messages of its own human: project-wide conversations may be other people's, so they stay with the
   * project's API key.
   *
   * @example
   * await services.analytics.conversationMessages(principal, { startDate: '2025-01-01T00:00:00Z', endDate: '2025-02-01T00:00:00Z' });
   */
  async conversationMessages(principal: Principal, range: AnalyticsRange): Promise<AnalyticsConversationMessage[]> {
    // Stored timestamps are UTC with milliseconds; normalising the bounds makes string comparison exact.
    const start = new Date(range.startDate).toISOString();
    const end = new Date(range.endDate).toISOString();
    let query = this.store.db
      .selectFrom('context_messages as message')
      .leftJoin('documents as context', (join) => join.onRef('context.id', '=', 'message.context_id').on('context.kind', '=', 'context'))
      .select([
        'message.id',
        'message.context_id',
        'message.project',
        'message.human',
        'message.role',
        'message.content',
        'message.realtime_session',
        'message.created_at',
        'context.data as context_data',
      ])
      .where('message.project', '=', principal.project)
      .where('message.created_at', '>=', start)
      .where('message.created_at', '<=', end);
    const human = principal.human;
    if (human !== null) {
      query = query.where('message.human', '=', human);
    }
    const rows = await query.orderBy('message.created_at', 'asc').orderBy('message.id', 'asc').limit(MAX_ANALYTICS_ROWS).execute();
    return rows.map((row) => {
      const context = parseContextData(row.context_data);
      return {
        context_id: row.context_id,
        message_id: row.id,
        project_id: row.project,
        created_at: row.created_at,
        role: row.role === 'custom' ? 'system' : row.role,
        message: textOf(JSON.parse(row.content) as ContextMessageContent[]),
        ...(row.human !== null ? { human_id: row.human } : {}),
        ...(row.realtime_session !== null ? { realtime_session: row.realtime_session } : {}),
        ...(context.persona ? { persona_id: context.persona } : {}),
        ...(context.scenario ? { scenario_id: context.scenario } : {}),
      };
    });
  }
}
