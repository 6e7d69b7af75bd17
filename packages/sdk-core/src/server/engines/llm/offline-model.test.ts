import { describe, expect, it } from 'vitest';
import type { ChatDelta, ChatModelRequest } from './chat-model.js';
import { assembleCompletion } from './completion-assembler.js';
import { createOfflineChatModel } from './offline-model.js';

const model = createOfflineChatModel();

async function run(request: Partial<ChatModelRequest>, signal = new AbortController().signal): Promise<ChatDelta[]> {
  const deltas: ChatDelta[] = [];
  for await (const delta of model.stream({ messages: [], toolChoice: 'none', parallelToolCalls: true, ...request }, { signal })) deltas.push(delta);
  return deltas;
}

const identity = { id: 'x', created: 0, model: 'builtin-offline' };
const lookup = {
  type: 'function' as const,
  function: {
    name: 'lookup_order',
    description: 'Find an order by its number',
    parameters: { type: 'object', properties: { order_number: { type: 'integer' } }, required: ['order_number'] },
    strict: false,
  },
};
const email = {
  type: 'function' as const,
  function: {
    name: 'send_email',
    description: 'Send an email message to a recipient address',
    parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    strict: false,
  },
};

describe('the offline model', () => {
  it('is deterministic and streams one word per delta', async () => {
    const messages = [{ role: 'user' as const, content: 'Good morning, model' }];
    const first = await run({ messages });
    expect(await run({ messages })).toEqual(first);
    const texts = first.filter((delta) => delta.type === 'text');
    expect(texts.length).toBeGreaterThan(5);
    expect(texts.every((delta) => delta.text.trim().split(/\s+/).length === 1)).toBe(true);
    expect(assembleCompletion(first, identity).choices[0]!.message.content).toContain('Good morning, model');
  });

  it('stops at maxTokens with finish length and counts exactly those tokens', async () => {
    const deltas = await run({ messages: [{ role: 'user', content: 'a b c d e f g' }], maxTokens: 4 });
    expect(deltas.filter((delta) => delta.type === 'text')).toHaveLength(4);
    expect(deltas.at(-2)).toEqual({ type: 'finish', reason: 'length' });
    expect(deltas.at(-1)).toMatchObject({ type: 'usage', usage: { completion_tokens: 4 } });
  });

  it('picks the tool the message asks for, fills arguments from it, and calls several in parallel', async () => {
    const one = assembleCompletion(
      await run({ messages: [{ role: 'user', content: 'Please lookup order 4521' }], tools: [email, lookup], toolChoice: 'auto' }),
      identity,
    );
    expect(one.choices[0]!.message.tool_calls).toEqual([
      { id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'lookup_order', arguments: '{"order_number":4521}' } },
    ]);
    const both = assembleCompletion(
      await run({
        messages: [{ role: 'user', content: 'lookup order 7 then send an email message to "ops@example.com"' }],
        tools: [email, lookup],
        toolChoice: 'auto',
      }),
      identity,
    );
    expect(both.choices[0]!.message.tool_calls!.map((call) => call.function.name).sort()).toEqual(['lookup_order', 'send_email']);
    const single = assembleCompletion(
      await run({
        messages: [{ role: 'user', content: 'lookup order 7 then send an email message to "ops@example.com"' }],
        tools: [email, lookup],
        toolChoice: 'auto',
        parallelToolCalls: false,
      }),
      identity,
    );
    expect(single.choices[0]!.message.tool_calls).toHaveLength(1);
  });

  it('with tool_choice required calls the first tool even when nothing matches', async () => {
    const result = assembleCompletion(await run({ messages: [{ role: 'user', content: 'hello' }], tools: [email, lookup], toolChoice: 'required' }), identity);
    expect(result.choices[0]!.finish_reason).toBe('tool_calls');
    expect(result.choices[0]!.message.tool_calls![0]!.function.name).toBe('send_email');
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    const seen: ChatDelta[] = [];
    const error = await (async () => {
      for await (const delta of model.stream(
        { messages: [{ role: 'user', content: 'a long sentence with many words in it' }], toolChoice: 'none', parallelToolCalls: true },
        { signal: controller.signal },
      )) {
        seen.push(delta);
        if (seen.length === 2) controller.abort(new Error('stop'));
      }
    })().catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('stop');
    expect(seen).toHaveLength(2);
  });
});
