import { z } from 'zod';
import { TOOL_NAME_PATTERN } from './chat.js';
import { FreeObject } from './common.js';
import { ResponseOutputItem } from './responses-items.js';

/** A response of OpenAI's Responses API as the platform answers it, and the tools and formats it echoes. */

export const ResponseFunctionTool = z
  .object({
    type: z.literal('function'),
    name: z.string().regex(TOOL_NAME_PATTERN, 'must match ^[a-zA-Z0-9_-]{1,64}$'),
    description: z.string().max(10_000).nullable().optional(),
    parameters: FreeObject.nullable().optional().describe('JSON Schema object of the arguments; omitted means no arguments.'),
    strict: z.boolean().nullable().optional(),
  })
  .meta({ id: 'ResponseFunctionTool' });
export type ResponseFunctionTool = z.output<typeof ResponseFunctionTool>;

export const ResponseToolChoice = z
  .union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), name: z.string().min(1) })])
  .meta({ id: 'ResponseToolChoice', description: 'Default `auto`.' });
export type ResponseToolChoice = z.output<typeof ResponseToolChoice>;

export const ResponseTextFormat = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z.object({
      type: z.literal('json_schema'),
      name: z.string().regex(TOOL_NAME_PATTERN, 'must match ^[a-zA-Z0-9_-]{1,64}$'),
      schema: FreeObject.describe('The JSON Schema the answer follows.'),
      description: z.string().max(10_000).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  ])
  .meta({ id: 'ResponseTextFormat' });
export type ResponseTextFormat = z.output<typeof ResponseTextFormat>;

export const ResponseUsage = z
  .object({
    input_tokens: z.number().int(),
    input_tokens_details: z.object({ cached_tokens: z.number().int() }),
    output_tokens: z.number().int(),
    output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
    total_tokens: z.number().int(),
  })
  .meta({ id: 'ResponseUsage' });
export type ResponseUsage = z.output<typeof ResponseUsage>;

export const ResponseStatus = z.enum(['in_progress', 'completed', 'incomplete', 'failed']).meta({ id: 'ResponseStatus' });

export const ResponseObject = z
  .object({
    id: z.string(),
    object: z.literal('response'),
    created_at: z.number().int().describe('Unix seconds.'),
    status: ResponseStatus,
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    incomplete_details: z.object({ reason: z.enum(['max_output_tokens', 'content_filter']) }).nullable(),
    instructions: z.string().nullable(),
    max_output_tokens: z.number().int().nullable(),
    model: z.string(),
    output: z.array(ResponseOutputItem),
    parallel_tool_calls: z.boolean(),
    previous_response_id: z.string().nullable(),
    temperature: z.number().nullable(),
    top_p: z.number().nullable(),
    text: z.object({ format: ResponseTextFormat }),
    tool_choice: ResponseToolChoice,
    tools: z.array(ResponseFunctionTool),
    truncation: z.literal('disabled'),
    store: z.boolean(),
    usage: ResponseUsage.nullable(),
    metadata: z.record(z.string(), z.string()),
    user: z.string().nullable().optional(),
  })
  .meta({ id: 'Response' });
export type ResponseObject = z.output<typeof ResponseObject>;
