import type { ChatCompletionChunk, chatRoutes } from '../chat.js';
import type { GroupExamples } from './route-example.js';
import { ids } from './sample-resources.js';

const id = 'chatcmpl_01m8d9s77f6ch76j16a489w5qc';
const created = 1748856601;
const chunk = (content: string | null, finish: 'stop' | null): ChatCompletionChunk => ({
  id,
  object: 'chat.completion.chunk',
  created,
  model: ids.builtinLlm,
  choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: finish }],
});

export const chatExamples: GroupExamples<typeof chatRoutes> = {
  create: {
    description: 'Answered whole; with `"stream": true` the answer is a server-sent event stream of `ChatCompletionChunk`s ending with `data: [DONE]`.',
    body: {
      model: ids.builtinLlm,
      messages: [
        { role: 'system', content: 'You are a friendly support agent.' },
        { role: 'user', content: 'Hello' },
      ],
    },
    response: {
      id,
      object: 'chat.completion',
      created,
      model: ids.builtinLlm,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'You said: "Hello". I am the Palaver offline test model, so I can only repeat what I hear.', refusal: null },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 18, total_tokens: 30 },
    },
    events: [chunk('You', null), chunk(' said: "Hello".', null), chunk(null, 'stop')],
  },
};
