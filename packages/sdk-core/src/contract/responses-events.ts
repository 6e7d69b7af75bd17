import { z } from 'zod';
import { ResponseOutputItem, ResponseOutputText } from './responses-items.js';
import { ResponseObject } from './responses-object.js';

/**
 * The typed server-sent events of a streamed response (`POST /v1/responses` with `stream: true`), in OpenAI's shapes:
 * each is `event: <type>` with `data: {type, sequence_number, ...}`; `sequence_number` counts from 0. The stream has
 * no `[DONE]`: it ends after `response.completed`, `response.incomplete` or `response.failed`.
 */

const base = { sequence_number: z.number().int() };
const at = { output_index: z.number().int(), item_id: z.string() };
const inPart = { ...at, content_index: z.number().int() };

const lifecycle = (type: 'response.created' | 'response.in_progress' | 'response.completed' | 'response.incomplete' | 'response.failed') =>
  z.object({ type: z.literal(type), ...base, response: ResponseObject });

export const ResponseStreamEvent = z
  .discriminatedUnion('type', [
    lifecycle('response.created'),
    lifecycle('response.in_progress'),
    z.object({ type: z.literal('response.output_item.added'), ...base, output_index: z.number().int(), item: ResponseOutputItem }),
    z.object({ type: z.literal('response.content_part.added'), ...base, ...inPart, part: ResponseOutputText }),
    z.object({ type: z.literal('response.output_text.delta'), ...base, ...inPart, delta: z.string(), logprobs: z.array(z.unknown()) }),
    z.object({ type: z.literal('response.output_text.done'), ...base, ...inPart, text: z.string(), logprobs: z.array(z.unknown()) }),
    z.object({ type: z.literal('response.content_part.done'), ...base, ...inPart, part: ResponseOutputText }),
    z.object({ type: z.literal('response.function_call_arguments.delta'), ...base, ...at, delta: z.string() }),
    z.object({ type: z.literal('response.function_call_arguments.done'), ...base, ...at, name: z.string(), arguments: z.string() }),
    z.object({ type: z.literal('response.output_item.done'), ...base, output_index: z.number().int(), item: ResponseOutputItem }),
    lifecycle('response.completed'),
    lifecycle('response.incomplete'),
    lifecycle('response.failed'),
  ])
  .meta({
    id: 'ResponseStreamEvent',
    description:
      'One event of a streamed response (`event: <type>`, then its `data`). Text arrives as `response.output_text.delta`s of a message ' +
      'item, a tool call as `response.function_call_arguments.delta`s of a `function_call` item; the last event carries the whole response.',
  });
export type ResponseStreamEvent = z.output<typeof ResponseStreamEvent>;
