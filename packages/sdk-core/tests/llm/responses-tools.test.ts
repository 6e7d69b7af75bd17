import OpenAI from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOpenAiClient } from '../../src/client/openai.js';
import { startFakeOpenAiUpstream, textChunks, toolCallChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

/**
 * Function tools and structured output of the Responses API, bridged over an upstream that speaks only Chat Completions
 * (the local fake): what the upstream is sent, and what the `openai` client makes of the answers.
 */
describe.each(await storeKinds())('Responses API tools and structured output (%s)', (kind) => {
  let test: TestServer;
  let upstream: FakeOpenAiUpstream;
  let openai: OpenAI;
  let model: string;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    test = await startTestServer(kind);
    const baseUrl = await test.server.listen(0, '127.0.0.1');
    openai = await createOpenAiClient({ baseUrl, apiKey: test.server.apiKey, openAiOptions: { maxRetries: 0 } });
    model = (await test.client.llms.create({ name: 'fake', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl })).id;
  });
  afterAll(async () => {
    await test?.close();
    await upstream?.close();
  });

  const lastSent = () => upstream.requests.at(-1)!.body;

  it('the model calls a function tool; the function_call_output sent with previous_response_id reaches it as a tool message', async () => {
    upstream.enqueue({ kind: 'stream', chunks: toolCallChunks([{ id: 'call_w1', name: 'get_weather', argumentFragments: ['{"city":', '"Paris"}'] }]) });
    const asked = await openai.responses.create({ model, input: 'Weather in Paris?', tools: [weatherTool] });
    expect(lastSent().tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: weatherTool.description, parameters: weatherTool.parameters, strict: true } },
    ]);
    expect(asked.output).toEqual([
      {
        type: 'function_call',
        id: expect.stringMatching(/^fc_/) as string,
        call_id: 'call_w1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
    ]);

    upstream.enqueue({ kind: 'stream', chunks: textChunks(['It', ' is', ' sunny.']) });
    const answered = await openai.responses.create({
      model,
      previous_response_id: asked.id,
      input: [{ type: 'function_call_output', call_id: 'call_w1', output: '{"sky":"sunny"}' }],
      tools: [weatherTool],
    });
    expect(answered.output_text).toBe('It is sunny.');
    expect(lastSent().messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_w1', content: '{"sky":"sunny"}' },
    ]);
  });

  it('bridges input items as chat messages: developer as system, images as image_url parts, earlier answers as assistant messages', async () => {
    upstream.enqueue({ kind: 'stream', chunks: textChunks(['A', ' cat.']) });
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const response = await openai.responses.create({
      model,
      input: [
        { role: 'developer', content: 'Answer in two words.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: image, detail: 'low' },
          ],
        },
      ],
    });
    expect(response.output_text).toBe('A cat.');
    expect(lastSent().messages).toEqual([
      { role: 'system', content: 'Answer in two words.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: 'Hello!' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: image, detail: 'low' } },
        ],
      },
    ]);
  });

  it('streams a tool call as a function_call item with argument deltas', async () => {
    upstream.enqueue({ kind: 'stream', chunks: toolCallChunks([{ id: 'call_w2', name: 'get_weather', argumentFragments: ['{"city":', '"Oslo"}'] }]) });
    const stream = openai.responses.stream({ model, input: 'Weather in Oslo?', tools: [weatherTool] });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const done = events.find((event) => event.type === 'response.function_call_arguments.done');
    expect(done).toMatchObject({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    const final = await stream.finalResponse();
    expect(final.output[0]).toMatchObject({ type: 'function_call', call_id: 'call_w2', arguments: '{"city":"Oslo"}' });
  });

  it('responses.parse with a zod schema: text.format reaches the upstream as response_format and the answer is parsed', async () => {
    const Event = z.object({ name: z.string(), date: z.string(), participants: z.array(z.string()) });
    const answer = { name: 'Science fair', date: 'Friday', participants: ['Alice', 'Bob'] };
    upstream.enqueue({ kind: 'stream', chunks: textChunks([JSON.stringify(answer).slice(0, 10), JSON.stringify(answer).slice(10)]) });
    const parsed = await openai.responses.parse({
      model,
      instructions: 'Extract the event information.',
      input: 'Alice and Bob are going to a science fair on Friday.',
      text: { format: zodTextFormat(Event, 'event'), verbosity: 'low' },
      reasoning: { effort: 'low' },
      safety_identifier: 'user-hash-1',
    });
    expect(parsed.output_parsed).toEqual(answer);
    const format = lastSent().response_format as { type: string; json_schema: { name: string; strict: boolean; schema: { properties: object } } };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.name).toBe('event');
    expect(format.json_schema.strict).toBe(true);
    expect(Object.keys(format.json_schema.schema.properties)).toEqual(['name', 'date', 'participants']);
    expect(parsed.text?.format).toMatchObject({ type: 'json_schema', name: 'event' });
    expect(lastSent()).toMatchObject({ reasoning_effort: 'low', verbosity: 'low', safety_identifier: 'user-hash-1' });
  });

  it('a client leaving mid-stream aborts the upstream request, and the unfinished response is not stored', async () => {
    const words = Array.from({ length: 40 }, (_value, index) => ` word${index}`);
    upstream.enqueue({ kind: 'stream', chunks: textChunks(words), delayMs: 25 });
    const stream = await openai.responses.create({ model, input: 'talk for a while', stream: true });
    let id: string | undefined;
    for await (const event of stream) {
      if (event.type === 'response.created') id = event.response.id;
      if (event.type === 'response.output_text.delta') break;
    }
    await upstream.waitForAbort(upstream.requests.at(-1)!, 5000);
    await expect(openai.responses.retrieve(id!)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('a failure after the stream began ends it with response.failed', async () => {
    upstream.enqueue({ kind: 'stream', chunks: textChunks(['Half', ' an']).slice(0, 2), after: 'error-event' });
    const stream = openai.responses.stream({ model, input: 'fail me' });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe('response.failed');
    const final = await stream.finalResponse();
    expect(final.status).toBe('failed');
    expect(final.error?.code).toBe('upstream_error');
  });
});
