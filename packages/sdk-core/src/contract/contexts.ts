import { z } from 'zod';
import { DateTime, FreeObject, Id, PageQuery } from './common.js';
import { defineRoute } from './define-route.js';

/** Longest `content` a message may carry, in characters. */
export const MAX_MESSAGE_CONTENT_LENGTH = 100_000;
/** Most messages a context can be created with in one request. */
export const MAX_INITIAL_MESSAGES = 500;
/** Most ids one `context_ids` / `message_ids` filter may name. */
export const MAX_FILTER_IDS = 100;
/** How many of the most recent messages a Context shows in `latest_messages`. */
export const LATEST_MESSAGES_COUNT = 20;

/** Roles a message can be created with; `custom` is stored as sent and read back as `system`. */
export const ContextMessageCreateRole = z.enum(['assistant', 'system', 'user', 'tool', 'custom']).meta({ id: 'ContextMessageCreateRole' });

/** Roles a stored message is shown with. */
export const ContextMessageRole = z.enum(['assistant', 'system', 'user', 'tool']).meta({ id: 'ContextMessageRole' });

export const ContextMessageToolCall = z
  .object({
    id: z.string().min(1).max(200),
    type: z.literal('function'),
    function: z.object({
      name: z.string().min(1).max(64),
      arguments: FreeObject.describe('Named arguments of the call.'),
    }),
  })
  .meta({ id: 'ContextMessageToolCall' });
export type ContextMessageToolCall = z.infer<typeof ContextMessageToolCall>;

export const ContextMessageTextContent = z.object({ type: z.literal('text'), text: z.string() }).meta({ id: 'ContextMessageTextContent' });
export const ContextMessageImageContent = z
  .object({
    type: z.literal('image_url'),
    image_url: z.object({ url: z.string().describe('A URI or a base64 data URI.') }),
  })
  .meta({ id: 'ContextMessageImageContent' });
export const ContextMessageVideoContent = z
  .object({
    type: z.literal('video_url'),
    video_url: z.object({ url: z.string().describe('A URI or a base64 data URI.') }),
  })
  .meta({ id: 'ContextMessageVideoContent' });

export const ContextMessageContent = z
  .discriminatedUnion('type', [ContextMessageTextContent, ContextMessageImageContent, ContextMessageVideoContent])
  .meta({ id: 'ContextMessageContent' });
export type ContextMessageContent = z.infer<typeof ContextMessageContent>;

export const ContextMessage = z
  .object({
    id: z.string(),
    created_at: DateTime,
    role: ContextMessageRole,
    content: z.array(ContextMessageContent),
    speaking_started_at: DateTime.optional(),
    speaking_ended_at: DateTime.optional(),
    realtime_session: z.string().optional(),
    tool_calls: z.array(ContextMessageToolCall).optional(),
    tool_call_id: z.string().optional(),
    tool_call_name: z.string().optional(),
  })
  .meta({ id: 'ContextMessage' });
export type ContextMessage = z.infer<typeof ContextMessage>;

export const ContextMessageCreateParams = z
  .object({
    role: ContextMessageCreateRole,
    content: z.string().max(MAX_MESSAGE_CONTENT_LENGTH),
    speaking_started_at: DateTime.optional(),
    speaking_ended_at: DateTime.optional(),
    tool_call_id: z.string().min(1).max(200).optional().describe('The tool call a `tool` message answers (optional, as in the spec).'),
    tool_call_name: z.string().min(1).max(64).optional(),
    tool_calls: z.array(ContextMessageToolCall).max(128).optional(),
    advanced_memory: z.boolean().optional().describe('Use the advanced memory system to generate responses.'),
  })
  .meta({ id: 'ContextMessageCreateParams' });
export type ContextMessageCreateParams = z.infer<typeof ContextMessageCreateParams>;

export const Context = z
  .object({
    id: z.string(),
    created_at: DateTime,
    project: z.string(),
    latest_messages: z.array(ContextMessage).describe(`The ${LATEST_MESSAGES_COUNT} most recent messages, oldest first.`),
    human: z.string().nullable().optional(),
  })
  .meta({ id: 'Context' });
export type Context = z.infer<typeof Context>;

// The spec's required list for this request names `id` and `created_at`, which are not among its
// properties; they are server-assigned, so the request requires nothing.
export const ContextCreateRequest = z
  .object({
    persona: Id.optional().describe('Persona id; must exist.'),
    scenario: Id.optional().describe('Scenario id; must exist.'),
    messages: z.array(ContextMessageCreateParams).max(MAX_INITIAL_MESSAGES).optional(),
  })
  .meta({ id: 'ContextCreateRequest' });
export type ContextCreateRequest = z.infer<typeof ContextCreateRequest>;

/** List shapes of contexts and messages: `next_page` is optional there (spec part 4). */
export const ContextList = z
  .object({ values: z.array(Context), total_count: z.number().int(), next_page: z.string().nullable().optional() })
  .meta({ id: 'ContextList' });
export const ContextMessageList = z
  .object({ values: z.array(ContextMessage), total_count: z.number().int(), next_page: z.string().nullable().optional() })
  .meta({ id: 'ContextMessageList' });

export const ContextAdvancedMemoryNode = z
  .object({ id: z.string(), created_at: DateTime, updated_at: DateTime, name: z.string(), summary: z.string() })
  .meta({ id: 'ContextAdvancedMemoryNode' });
export type ContextAdvancedMemoryNode = z.infer<typeof ContextAdvancedMemoryNode>;

export const ContextAdvancedMemoryEdge = z
  .object({
    id: z.string(),
    created_at: DateTime,
    updated_at: DateTime,
    source_node: z.string(),
    target_node: z.string(),
    fact: z.string(),
    relation: z.string(),
    invalidated_at: DateTime.optional(),
  })
  .meta({ id: 'ContextAdvancedMemoryEdge' });
export type ContextAdvancedMemoryEdge = z.infer<typeof ContextAdvancedMemoryEdge>;

export const ContextAdvancedMemoryQueryRequest = z
  .object({ new_user_message: z.string().min(1).max(MAX_MESSAGE_CONTENT_LENGTH) })
  .meta({ id: 'ContextAdvancedMemoryQueryRequest' });

export const ContextAdvancedMemoryQueryResult = z
  .object({ nodes: z.array(ContextAdvancedMemoryNode), edges: z.array(ContextAdvancedMemoryEdge) })
  .meta({ id: 'ContextAdvancedMemoryQueryResult' });
export type ContextAdvancedMemoryQueryResult = z.infer<typeof ContextAdvancedMemoryQueryResult>;

const contextParams = z.object({ context: Id });
const messageParams = z.object({ context: Id, message: Id });
const IdFilter = z.array(Id).max(MAX_FILTER_IDS);

export const contextRoutes = {
  create: defineRoute({
    operationId: 'contexts.create',
    method: 'POST',
    path: '/v1/llm/context',
    auth: 'K/B',
    tag: 'Contexts',
    summary: 'Create a context, optionally with a persona, a scenario and first messages',
    request: { body: ContextCreateRequest },
    success: { kind: 'json', schema: Context },
  }),
  list: defineRoute({
    operationId: 'contexts.list',
    method: 'GET',
    path: '/v1/llm/context/list',
    auth: 'K/B',
    tag: 'Contexts',
    summary: 'Get several contexts by id',
    request: {
      query: z.object({
        context_ids: IdFilter.min(1).describe(`Comma-separated context ids (at most ${MAX_FILTER_IDS}).`),
      }),
    },
    success: { kind: 'json', schema: ContextList },
  }),
  retrieve: defineRoute({
    operationId: 'contexts.retrieve',
    method: 'GET',
    path: '/v1/llm/context/{context}',
    auth: 'K/B',
    tag: 'Contexts',
    summary: 'Get a context with its latest messages',
    request: { params: contextParams },
    success: { kind: 'json', schema: Context },
    errors: [404],
  }),
  listMessages: defineRoute({
    operationId: 'contexts.listMessages',
    method: 'GET',
    path: '/v1/llm/context/{context}/message/list',
    auth: 'K/B',
    tag: 'Contexts',
    summary: "List a context's messages, oldest first",
    request: {
      params: contextParams,
      query: PageQuery.extend({
        message_ids: IdFilter.optional().describe('Only these messages (comma-separated ids).'),
      }),
    },
    success: { kind: 'json', schema: ContextMessageList },
    errors: [404],
  }),
  createMessage: defineRoute({
    operationId: 'contexts.createMessage',
    method: 'POST',
    path: '/v1/llm/context/{context}/message',
    auth: 'K/B',
    tag: 'Contexts',
    summary: 'Append a message to a context',
    request: { params: contextParams, body: ContextMessageCreateParams },
    success: { kind: 'json', schema: ContextMessage },
    errors: [403, 404],
  }),
  retrieveMessage: defineRoute({
    operationId: 'contexts.retrieveMessage',
    method: 'GET',
    path: '/v1/llm/context/{context}/message/{message}',
    auth: 'K/B',
    tag: 'Contexts',
    summary: 'Get one message of a context',
    request: { params: messageParams },
    success: { kind: 'json', schema: ContextMessage },
    errors: [404],
  }),
  queryAdvancedMemory: defineRoute({
    operationId: 'contexts.queryAdvancedMemory',
    method: 'POST',
    path: '/v1/llm/context/{context}/advanced_memory/query',
    auth: 'K/B',
    tag: 'Contexts',
    summary: "Query a context's advanced memory graph for what is relevant to a new user message",
    request: { params: contextParams, body: ContextAdvancedMemoryQueryRequest },
    success: { kind: 'json', schema: ContextAdvancedMemoryQueryResult },
    errors: [404],
  }),
};
