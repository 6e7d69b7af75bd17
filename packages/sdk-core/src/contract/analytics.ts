import { z } from 'zod';
import { DateTime } from './common.js';
import { defineRoute } from './define-route.js';

/** Longest range one analytics query may cover. */
export const MAX_ANALYTICS_RANGE_DAYS = 366;
/** Most rows one analytics answer carries (the oldest ones in the range). */
export const MAX_ANALYTICS_ROWS = 10_000;

export const AnalyticsConversationMessage = z
  .object({
    context_id: z.string(),
    message_id: z.string(),
    project_id: z.string(),
    created_at: DateTime,
    role: z.string(),
    message: z.string().describe('The text of the message.'),
    human_id: z.string().optional(),
    realtime_session: z.string().optional(),
    persona_id: z.string().optional(),
    scenario_id: z.string().optional(),
  })
  .meta({ id: 'AnalyticsConversationMessage' });
export type AnalyticsConversationMessage = z.infer<typeof AnalyticsConversationMessage>;

const DAY_MS = 24 * 3600 * 1000;

export const AnalyticsConversationMessagesQuery = z
  .object({
    start_date: DateTime.describe('Start of the range (inclusive).'),
    end_date: DateTime.describe('End of the range (inclusive).'),
  })
  .refine((query) => Date.parse(query.end_date) >= Date.parse(query.start_date), {
    message: 'end_date must not be before start_date',
    path: ['end_date'],
  })
  .refine((query) => Date.parse(query.end_date) - Date.parse(query.start_date) <= MAX_ANALYTICS_RANGE_DAYS * DAY_MS, {
    message: `the range may cover at most ${MAX_ANALYTICS_RANGE_DAYS} days`,
    path: ['end_date'],
  });

export const AnalyticsConversationMessages = z.array(AnalyticsConversationMessage).meta({ id: 'AnalyticsConversationMessages' });

export const analyticsRoutes = {
  conversationMessages: defineRoute({
    operationId: 'analytics.conversationMessages',
    method: 'GET',
    path: '/v1/analytics/conversation_messages',
    auth: 'K/B',
    tag: 'Analytics',
    summary: `Conversation messages created in a date range, oldest first (at most ${MAX_ANALYTICS_ROWS})`,
    request: { query: AnalyticsConversationMessagesQuery },
    success: { kind: 'json', schema: AnalyticsConversationMessages },
  }),
};
