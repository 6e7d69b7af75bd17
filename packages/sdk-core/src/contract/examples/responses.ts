import type { ResponseObject } from '../responses-object.js';
import type { ResponseStreamEvent } from '../responses-events.js';
import type { ResponseOutputMessage, ResponseOutputText } from '../responses-items.js';
import type { responseRoutes } from '../responses.js';
import type { GroupExamples } from './route-example.js';
import { ids } from './sample-resources.js';

const id = 'resp_01m8d9s77f6ch76j16a489w5qd';
const messageId = 'msg_01m8d9s77gxq0d1m4h3q8wz2k5';
const inputId = 'msg_01m8d9s77f6ch76j16a489w5qe';
const text = 'You said: "Hello". I am the Palaver offline test model, so I can only repeat what I hear.';

const started: ResponseObject = {
  id,
  object: 'response',
  created_at: 1748856601,
  status: 'in_progress',
  error: null,
  incomplete_details: null,
  instructions: 'You are a friendly support agent.',
  max_output_tokens: null,
  model: ids.builtinLlm,
  output: [],
  parallel_tool_calls: true,
  previous_response_id: null,
  temperature: null,
  top_p: null,
  text: { format: { type: 'text' } },
  tool_choice: 'auto',
  tools: [],
  truncation: 'disabled',
  store: true,
  usage: null,
  metadata: {},
  user: null,
};

const message: ResponseOutputMessage = {
  type: 'message',
  id: messageId,
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [] }],
};

const completed: ResponseObject = {
  ...started,
  status: 'completed',
  output: [message],
  usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 18, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 30 },
};

const part = (partText: string): ResponseOutputText => ({ type: 'output_text', text: partText, annotations: [] });
const at = { output_index: 0, item_id: messageId, content_index: 0 };

const events: ResponseStreamEvent[] = [
  { type: 'response.created', sequence_number: 0, response: started },
  { type: 'response.in_progress', sequence_number: 1, response: started },
  { type: 'response.output_item.added', sequence_number: 2, output_index: 0, item: { ...message, status: 'in_progress', content: [] } },
  { type: 'response.content_part.added', sequence_number: 3, ...at, part: part('') },
  { type: 'response.output_text.delta', sequence_number: 4, ...at, delta: 'You said: "Hello".', logprobs: [] },
  { type: 'response.output_text.delta', sequence_number: 5, ...at, delta: text.slice('You said: "Hello".'.length), logprobs: [] },
  { type: 'response.output_text.done', sequence_number: 6, ...at, text, logprobs: [] },
  { type: 'response.content_part.done', sequence_number: 7, ...at, part: part(text) },
  { type: 'response.output_item.done', sequence_number: 8, output_index: 0, item: message },
  { type: 'response.completed', sequence_number: 9, response: completed },
];

export const responseExamples: GroupExamples<typeof responseRoutes> = {
  create: {
    description:
      'Answered whole; with `"stream": true` the answer is a server-sent event stream of typed `ResponseStreamEvent`s (`event: <type>`), ' +
      'ending with `response.completed`. `previous_response_id` continues a stored conversation.',
    body: { model: ids.builtinLlm, instructions: 'You are a friendly support agent.', input: 'Hello' },
    response: completed,
    events,
  },
  retrieve: { params: { response_id: id }, response: completed },
  delete: { params: { response_id: id }, response: { id, object: 'response.deleted', deleted: true } },
  inputItems: {
    params: { response_id: id },
    response: {
      object: 'list',
      data: [{ type: 'message', id: inputId, status: 'completed', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }],
      first_id: inputId,
      last_id: inputId,
      has_more: false,
    },
  },
};
