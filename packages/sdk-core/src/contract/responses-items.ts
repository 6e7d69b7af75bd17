import { z } from 'zod';
import { TOOL_NAME_PATTERN } from './chat.js';

/**
 * The items of OpenAI's Responses API (`POST /v1/responses`): what a caller sends as `input`, what a response answers
 * in `output`, and the stored input items `GET /v1/responses/{response_id}/input_items` lists.
 */

const MAX_TEXT = 1_000_000;
const ToolName = z.string().regex(TOOL_NAME_PATTERN, 'must match ^[a-zA-Z0-9_-]{1,64}$');
const CallId = z.string().min(1).max(200);

export const ResponseInputText = z.object({ type: z.literal('input_text'), text: z.string().max(MAX_TEXT) }).meta({ id: 'ResponseInputText' });

export const ResponseInputImage = z
  .object({
    type: z.literal('input_image'),
    image_url: z.url().describe('A URI or a base64 data URI.'),
    detail: z.enum(['auto', 'low', 'high']).default('auto'),
  })
  .meta({ id: 'ResponseInputImage' });

export const ResponseOutputText = z
  .object({ type: z.literal('output_text'), text: z.string().max(MAX_TEXT), annotations: z.array(z.unknown()).default([]) })
  .meta({ id: 'ResponseOutputText' });
export type ResponseOutputText = z.output<typeof ResponseOutputText>;

export const ResponseRefusal = z.object({ type: z.literal('refusal'), refusal: z.string().max(MAX_TEXT) }).meta({ id: 'ResponseRefusal' });

/** A part of a message given as input: the caller's text and images, or an earlier answer's text. */
export const ResponseInputContent = z
  .discriminatedUnion('type', [ResponseInputText, ResponseInputImage, ResponseOutputText, ResponseRefusal])
  .meta({ id: 'ResponseInputContent' });
export type ResponseInputContent = z.output<typeof ResponseInputContent>;

const ItemStatus = z.enum(['in_progress', 'completed', 'incomplete']);

/** A message of the conversation; `developer` and `system` messages are instructions. */
export const ResponseInputMessage = z
  .object({
    type: z.literal('message').optional(),
    id: z.string().max(200).optional(),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content: z.union([z.string().max(MAX_TEXT), z.array(ResponseInputContent).min(1).max(256)]),
    status: ItemStatus.optional(),
  })
  .meta({ id: 'ResponseInputMessage' });

/** A call of a function tool the model made. */
export const ResponseFunctionCall = z
  .object({
    type: z.literal('function_call'),
    id: z.string().max(200).optional(),
    call_id: CallId,
    name: ToolName,
    arguments: z.string().max(MAX_TEXT).describe('The arguments as a JSON string.'),
    status: ItemStatus.optional(),
  })
  .meta({ id: 'ResponseFunctionCall' });
export type ResponseFunctionCall = z.output<typeof ResponseFunctionCall>;

/** What the caller's function answered to a call (`call_id` of the model's `function_call`). */
export const ResponseFunctionCallOutput = z
  .object({
    type: z.literal('function_call_output'),
    id: z.string().max(200).optional(),
    call_id: CallId,
    output: z.union([z.string().max(MAX_TEXT), z.array(ResponseInputText).min(1)]),
    status: ItemStatus.optional(),
  })
  .meta({ id: 'ResponseFunctionCallOutput' });

export const ResponseInputItem = z.union([ResponseInputMessage, ResponseFunctionCall, ResponseFunctionCallOutput]).meta({ id: 'ResponseInputItem' });
export type ResponseInputItem = z.output<typeof ResponseInputItem>;

/** The assistant's message in a response's `output`. */
export const ResponseOutputMessage = z
  .object({
    type: z.literal('message'),
    id: z.string(),
    status: ItemStatus,
    role: z.literal('assistant'),
    content: z.array(z.discriminatedUnion('type', [ResponseOutputText, ResponseRefusal])),
  })
  .meta({ id: 'ResponseOutputMessage' });
export type ResponseOutputMessage = z.output<typeof ResponseOutputMessage>;

const OutputFunctionCall = ResponseFunctionCall.extend({ id: z.string(), status: ItemStatus }).meta({ id: 'ResponseOutputFunctionCall' });

export const ResponseOutputItem = z.discriminatedUnion('type', [ResponseOutputMessage, OutputFunctionCall]).meta({ id: 'ResponseOutputItem' });
export type ResponseOutputItem = z.output<typeof ResponseOutputItem>;

/** A stored input item, as `input_items` lists it: every item has its id and status, a message's text is a part. */
export const ResponseItem = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('message'),
      id: z.string(),
      status: ItemStatus,
      role: z.enum(['user', 'assistant', 'system', 'developer']),
      content: z.array(ResponseInputContent),
    }),
    OutputFunctionCall,
    ResponseFunctionCallOutput.extend({ id: z.string(), status: ItemStatus }),
  ])
  .meta({ id: 'ResponseItem' });
export type ResponseItem = z.output<typeof ResponseItem>;

export const ResponseItemList = z
  .object({
    object: z.literal('list'),
    data: z.array(ResponseItem),
    first_id: z.string().nullable(),
    last_id: z.string().nullable(),
    has_more: z.boolean(),
  })
  .meta({ id: 'ResponseItemList' });
export type ResponseItemList = z.output<typeof ResponseItemList>;
