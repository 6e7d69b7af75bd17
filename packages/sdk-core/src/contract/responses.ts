import { z } from 'zod';
import { ReasoningEffort, chatParameterFields } from './chat-parameters.js';
import { MAX_COMPLETION_TOKENS } from './chat.js';
import { Id } from './common.js';
import { defineRoute } from './define-route.js';
import { ResponseStreamEvent } from './responses-events.js';
import { ResponseInputItem, ResponseItemList } from './responses-items.js';
import { ResponseFunctionTool, ResponseObject, ResponseTextFormat, ResponseToolChoice } from './responses-object.js';

/**
 * OpenAI's Responses API over the platform's LLMs: a response is one chat call through the gateway (metered and
 * limited like `POST /v1/chat/completions`), stored for the caller (project and human) so that `previous_response_id`
 * continues the conversation. See docs/decisions/0096-responses-api.md.
 */

const MAX_INPUT_ITEMS = 2048;
const MAX_TOOLS = 128;

export const ResponseTextConfig = z
  .object({ format: ResponseTextFormat.default({ type: 'text' }), verbosity: chatParameterFields.verbosity })
  .meta({ id: 'ResponseTextConfig', description: "The answer's format: plain text (default), any JSON object, or JSON following a schema." });

/** `metadata`: at most 16 string values, as OpenAI takes them (stored with the usage record). */
const ResponseMetadata = z.record(z.string().max(64), z.string().max(512)).refine((value) => Object.keys(value).length <= 16, 'at most 16 keys');

export const ResponseCreateRequest = z
  .strictObject({
    model: z.string().min(1).max(200).describe('An LLM id of the platform.'),
    input: z.union([z.string().max(1_000_000), z.array(ResponseInputItem).min(1).max(MAX_INPUT_ITEMS)]),
    instructions: z.string().max(1_000_000).nullable().optional().describe('A system message before the input; not carried over by `previous_response_id`.'),
    previous_response_id: Id.nullable().optional().describe("A stored response of the caller's whose conversation this one continues."),
    stream: z.boolean().nullable().default(false),
    store: z.boolean().nullable().default(true).describe('Keep the response (retrievable, continuable) for the retention period; default true.'),
    tools: z.array(ResponseFunctionTool).max(MAX_TOOLS).optional(),
    tool_choice: ResponseToolChoice.optional(),
    parallel_tool_calls: z.boolean().nullable().default(true),
    text: ResponseTextConfig.optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    max_output_tokens: z.number().int().min(1).max(MAX_COMPLETION_TOKENS).nullable().optional(),
    metadata: ResponseMetadata.nullable().optional(),
    user: z.string().max(256).optional(),
    reasoning: z
      .object({ effort: ReasoningEffort.nullable().optional(), summary: z.enum(['auto', 'concise', 'detailed']).nullable().optional() })
      .nullable()
      .optional()
      .describe('`effort` reaches the LLM as `reasoning_effort`; no reasoning items are answered.'),
    service_tier: chatParameterFields.service_tier,
    safety_identifier: chatParameterFields.safety_identifier,
    prompt_cache_key: chatParameterFields.prompt_cache_key,
    truncation: z.literal('disabled').nullable().optional().describe('Only `disabled`: a conversation longer than the LLM takes is refused by it.'),
    background: z.literal(false).nullable().optional().describe('Background responses are not supported.'),
    stream_options: z.object({ include_obfuscation: z.boolean().optional() }).nullable().optional().describe('Accepted; events are never padded.'),
  })
  .superRefine((request, context) => {
    const names = (request.tools ?? []).map((tool) => tool.name);
    const duplicate = names.find((name, index) => names.indexOf(name) !== index);
    if (duplicate !== undefined) context.addIssue({ code: 'custom', path: ['tools'], message: `declares '${duplicate}' twice` });
    const choice = request.tool_choice;
    if (typeof choice === 'object' && !names.includes(choice.name)) {
      context.addIssue({ code: 'custom', path: ['tool_choice', 'name'], message: `names '${choice.name}', which is not declared in tools` });
    } else if (choice === 'required' && names.length === 0) {
      context.addIssue({ code: 'custom', path: ['tool_choice'], message: 'requires tools to be declared' });
    }
  })
  .meta({ id: 'ResponseCreateRequest' });
export type ResponseCreateRequest = z.output<typeof ResponseCreateRequest>;

export const ResponseDeleted = z.object({ id: z.string(), object: z.literal('response.deleted'), deleted: z.literal(true) }).meta({ id: 'ResponseDeleted' });

const ResponseParams = z.object({ response_id: Id });

export const ResponseItemsQuery = z.object({
  after: Id.optional().describe('An item id: the page starts after it.'),
  before: Id.optional().describe('An item id: the page ends before it.'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  order: z.enum(['asc', 'desc']).default('desc').describe('`desc` (default) lists the last input item first.'),
});
export type ResponseItemsQuery = z.output<typeof ResponseItemsQuery>;

export const responseRoutes = {
  create: defineRoute({
    operationId: 'responses.create',
    method: 'POST',
    path: '/v1/responses',
    auth: 'K/B',
    tag: 'Responses',
    summary: 'Create a response (OpenAI Responses API; streamed as typed events when `stream` is true)',
    request: { body: ResponseCreateRequest },
    success: { kind: 'json-or-sse', schema: ResponseObject, event: ResponseStreamEvent },
    errors: [502],
  }),
  retrieve: defineRoute({
    operationId: 'responses.retrieve',
    method: 'GET',
    path: '/v1/responses/{response_id}',
    auth: 'K/B',
    tag: 'Responses',
    summary: "Get one of the caller's stored responses",
    request: { params: ResponseParams },
    success: { kind: 'json', schema: ResponseObject },
    errors: [404],
  }),
  delete: defineRoute({
    operationId: 'responses.delete',
    method: 'DELETE',
    path: '/v1/responses/{response_id}',
    auth: 'K/B',
    tag: 'Responses',
    summary: "Delete one of the caller's stored responses (and its input items)",
    request: { params: ResponseParams },
    success: { kind: 'json', schema: ResponseDeleted },
    errors: [404],
  }),
  inputItems: defineRoute({
    operationId: 'responses.inputItems',
    method: 'GET',
    path: '/v1/responses/{response_id}/input_items',
    auth: 'K/B',
    tag: 'Responses',
    summary: "List a stored response's input items (OpenAI's cursor list: `after`, `limit`, `order`)",
    request: { params: ResponseParams, query: ResponseItemsQuery },
    success: { kind: 'json', schema: ResponseItemList },
    errors: [404],
  }),
};
