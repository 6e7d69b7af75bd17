import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../src/client/openai.js';
import { ChatCompletionChunk, ChatCompletionResponse } from '../../src/contract/chat.js';
import { storeKinds } from '../support/databases.js';
import { startFakeOpenAiUpstream, textChunks, toolCallChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { readEvents, readEventsUntil } from './sse-reader.js';

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city'] },
  },
};

describe.each(await storeKinds())('POST /v1/chat/completions (%s)', (kind) => {
  let test: TestServer;
  let upstream: FakeOpenAiUpstream;
  let baseUrl: string;
  let openai: OpenAI;
  let upstreamLlm: string;
  const upstreamSecret = 'sk-upstream-canary-7f3a9c';

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    test = await startTestServer(kind);
    baseUrl = await test.server.listen(0, '127.0.0.1');
    openai = await createOpenAiClient({ baseUrl, apiKey: test.server.apiKey, openAiOptions: { maxRetries: 0 } });
    await test.client.secrets.create({ name: 'UPSTREAM_KEY', value: upstreamSecret });
    const llm = await test.client.llms.create({
      name: 'fake upstream',
      description: 'the local fake OpenAI upstream',
      headers: [{ key: 'Authorization', value: 'Bearer {{secret:UPSTREAM_KEY}}' }],
      model: 'fake-gpt',
      post_url: upstream.chatUrl,
    });
    upstreamLlm = llm.id;
  });
  afterAll(async () => {
    await test.close();
    await upstream.close();
  });

  const post = (body: unknown, headers: Record<string, string> = { 'x-api-key': test.server.apiKey }) =>
    fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  describe('the offline built-in model', () => {
    it('answers deterministically, non-streamed, with usage', async () => {
      const request = { model: 'builtin-offline', messages: [{ role: 'user' as const, content: 'The sky is green today' }] };
      const first = await openai.chat.completions.create(request);
      const second = await openai.chat.completions.create(request);
      expect(first.object).toBe('chat.completion');
      expect(ChatCompletionResponse.parse(first)).toEqual(first);
      expect(first.model).toBe('builtin-offline');
      expect(first.choices[0]!.message).toMatchObject({ role: 'assistant', refusal: null });
      expect(first.choices[0]!.message.content).toContain('The sky is green today');
      expect(first.choices[0]!.finish_reason).toBe('stop');
      expect(second.choices[0]!.message.content).toBe(first.choices[0]!.message.content);
      expect(first.usage!.total_tokens).toBe(first.usage!.prompt_tokens + first.usage!.completion_tokens);
      expect(first.usage!.completion_tokens).toBeGreaterThan(3);
    });

    it('streams token by token, the concatenation equal to the whole answer, with the usage chunk last', async () => {
      const messages = [{ role: 'user' as const, content: 'Tell me about streams' }];
      const whole = await openai.chat.completions.create({ model: 'builtin-offline', messages });
      const stream = await openai.chat.completions.create({ model: 'builtin-offline', messages, stream: true, stream_options: { include_usage: true } });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
      expect(text).toBe(whole.choices[0]!.message.content);
      expect(chunks.length).toBeGreaterThan(5);
      for (const chunk of chunks) {
        expect(chunk.object).toBe('chat.completion.chunk');
        expect(typeof chunk.created).toBe('number');
        expect(chunk.id).toBe(chunks[0]!.id);
      }
      const usageChunk = chunks.at(-1)!;
      expect(usageChunk.choices).toEqual([]);
      expect(usageChunk.usage).toEqual(whole.usage);
      expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    });

    it('honours max_tokens with finish_reason length', async () => {
      const completion = await openai.chat.completions.create({
        model: 'builtin-offline',
        max_tokens: 3,
        messages: [{ role: 'user', content: 'one two three four five six' }],
      });
      expect(completion.choices[0]!.finish_reason).toBe('length');
      expect(completion.usage!.completion_tokens).toBe(3);
      expect(completion.choices[0]!.message.content!.trim().split(/\s+/)).toHaveLength(3);
    });

    it('calls a declared tool the user asks for, streamed as tool-call deltas, then answers from its result', async () => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
      const stream = await openai.chat.completions.create({ model: 'builtin-offline', messages, tools: [weatherTool], stream: true });
      const deltas = [];
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(finish).toBe('tool_calls');
      expect(deltas[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
      expect(deltas[0]!.id).toMatch(/^call_/);
      expect(deltas.length).toBeGreaterThan(2);
      expect(deltas.slice(1).every((delta) => delta.index === 0 && delta.id === undefined)).toBe(true);
      const argumentsText = deltas.map((delta) => delta.function?.arguments ?? '').join('');
      expect(JSON.parse(argumentsText)).toEqual({ city: 'Paris' });

      const whole = await openai.chat.completions.create({ model: 'builtin-offline', messages, tools: [weatherTool] });
      const call = whole.choices[0]!.message.tool_calls![0]!;
      expect(call).toMatchObject({ id: deltas[0]!.id, type: 'function', function: { name: 'get_weather', arguments: argumentsText } });
      const answer = await openai.chat.completions.create({
        model: 'builtin-offline',
        tools: [weatherTool],
        messages: [...messages, whole.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '21 degrees and sunny' }],
      });
      expect(answer.choices[0]!.finish_reason).toBe('stop');
      expect(answer.choices[0]!.message.content).toContain('21 degrees and sunny');
    });

    it('answers plainly when no declared tool is asked for, or when tool_choice is none', async () => {
      const unrelated = await openai.chat.completions.create({
        model: 'builtin-offline',
        tools: [weatherTool],
        messages: [{ role: 'user', content: 'Sing me a song' }],
      });
      expect(unrelated.choices[0]!.message.tool_calls).toBeUndefined();
      const none = await openai.chat.completions.create({
        model: 'builtin-offline',
        tools: [weatherTool],
        tool_choice: 'none',
        messages: [{ role: 'user', content: 'weather in Rome?' }],
      });
      expect(none.choices[0]!.finish_reason).toBe('stop');
      const named = await openai.chat.completions.create({
        model: 'builtin-offline',
        tools: [weatherTool],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        messages: [{ role: 'user', content: 'Sing me a song' }],
      });
      expect(named.choices[0]!.message.tool_calls![0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    });

    // Audio parts (transcribed, or refused without an STT engine): chat-speech.test.ts.
    it('refuses image and video parts, naming the part', async () => {
      for (const [part, expected] of [
        [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }, 'image_url parts are not supported'],
        [{ type: 'video_url', video_url: { url: 'data:video/mp4;base64,AAAA' } }, 'video_url parts are not supported'],
      ] as const) {
        const response = await post({ model: 'builtin-offline', messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, part] }] });
        expect(response.status).toBe(400);
        const body = (await response.json()) as { type: string; message: string };
        expect(body.type).toBe('invalid_input');
        expect(body.message).toContain('messages[0].content[1]');
        expect(body.message).toContain(expected);
      }
    });
  });

  describe('an OpenAI-compatible upstream', () => {
    it('passes streamed chunks through one for one, in order, with the LLM headers and model', async () => {
      const words = ['Exactly', ' these', ' six', ' chunks', ' pass', ' through'];
      upstream.enqueue({ kind: 'stream', chunks: textChunks(words), delayMs: 30 });
      const before = upstream.requests.length;
      const sentAt = performance.now();
      const response = await post({
        model: upstreamLlm,
        stream: true,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const events = await readEvents(response, sentAt);
      expect(events.at(-1)!.data).toBe('[DONE]');
      const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
      // Every chunk matches the contract's schema exactly (nothing stripped, nothing missing).
      for (const chunk of chunks) expect(ChatCompletionChunk.parse(chunk)).toEqual(chunk);
      expect(chunks.map((chunk) => chunk.choices[0].delta.content)).toEqual(['', ...words, null]);
      expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
      expect(chunks.every((chunk) => chunk.model === upstreamLlm && chunk.object === 'chat.completion.chunk')).toBe(true);

      const seen = upstream.requests[before]!;
      expect(seen.url).toBe('/v1/chat/completions');
      expect(seen.headers.authorization).toBe(`Bearer ${upstreamSecret}`);
      expect(seen.body).toMatchObject({ model: 'fake-gpt', stream: true, stream_options: { include_usage: true } });
      expect(seen.body.messages).toEqual([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ]);
    });

    it('streams incrementally: the chunks reach the client while the upstream stream is still open', async () => {
      // The upstream sends its chunks, then neither finishes nor closes: only a stream passed on as it comes shows them.
      const words = ['Sent', ' before', ' the', ' end'];
      upstream.enqueue({ kind: 'stream', chunks: textChunks(words).slice(0, -1), after: 'stall' });
      const response = await post({ model: upstreamLlm, stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const seen = upstream.requests.at(-1)!;
      const events = await readEventsUntil(response, (received) => received.length === words.length + 1, 20_000);
      expect(events.map((event) => JSON.parse(event.data).choices[0].delta.content)).toEqual(['', ...words]);
      expect(seen.finishedAt).toBeUndefined();
      // Reading no further closed the request, and the upstream's with it.
      await upstream.waitForAbort(seen, 20_000);
    });

    it('answers a browser stream over a socket with the CORS, request-id and event-stream headers', async () => {
      const response = await fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey, origin: 'https://app.example' },
        body: JSON.stringify({ model: upstreamLlm, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toContain('x-request-id');
      expect(response.headers.get('x-request-id')).toMatch(/\S+/);
      expect(response.headers.get('x-hono-already-sent')).toBeNull();
      expect((await response.text()).endsWith('data: [DONE]\n\n')).toBe(true);
    });

    it('reuses kept-alive upstream connections across requests', async () => {
      const before = upstream.connectionCount;
      for (let index = 0; index < 5; index += 1) {
        const response = await post({ model: upstreamLlm, stream: true, messages: [{ role: 'user', content: `hi ${index}` }] });
        expect((await response.text()).endsWith('data: [DONE]\n\n')).toBe(true);
      }
      expect(upstream.connectionCount - before).toBeLessThanOrEqual(1);
    });

    it('applies a changed LLM definition and a changed secret on the very next request', async () => {
      await test.client.secrets.create({ name: 'ROTATING_KEY', value: 'sk-before-rotation-1' });
      const llm = await test.client.llms.create({
        name: 'rotating',
        description: 'changes between requests',
        headers: [{ key: 'Authorization', value: 'Bearer {{secret:ROTATING_KEY}}' }],
        model: 'model-one',
        post_url: upstream.chatUrl,
      });
      const ask = async () => {
        const before = upstream.requests.length;
        await openai.chat.completions.create({ model: llm.id, messages: [{ role: 'user', content: 'hi' }] });
        return upstream.requests[before]!;
      };
      expect((await ask()).headers.authorization).toBe('Bearer sk-before-rotation-1');
      await test.client.secrets.update('ROTATING_KEY', { name: 'ROTATING_KEY', value: 'sk-after-rotation-2' });
      expect((await ask()).headers.authorization).toBe('Bearer sk-after-rotation-2');
      await test.client.llms.update(llm.id, {
        name: 'rotating',
        description: 'changed',
        headers: [{ key: 'Authorization', value: 'Bearer {{secret:ROTATING_KEY}}' }],
        model: 'model-two',
        post_url: upstream.chatUrl,
      });
      expect((await ask()).body.model).toBe('model-two');
      await test.client.llms.delete(llm.id);
      await expect(openai.chat.completions.create({ model: llm.id, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 400 });
    });

    it('passes tool-call deltas through with their index, and assembles them when not streamed', async () => {
      const calls = [
        { id: 'call_a', name: 'get_weather', argumentFragments: ['{"ci', 'ty":"Par', 'is"}'] },
        { id: 'call_b', name: 'get_weather', argumentFragments: ['{"city":', '"Oslo"}'] },
      ];
      upstream.enqueue({ kind: 'stream', chunks: toolCallChunks(calls) });
      const stream = await openai.chat.completions.create({
        model: upstreamLlm,
        messages: [{ role: 'user', content: 'weather in Paris and Oslo' }],
        tools: [weatherTool],
        stream: true,
      });
      const deltas = [];
      for await (const chunk of stream) deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
      expect(deltas).toEqual([
        { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
        { index: 0, function: { arguments: '{"ci' } },
        { index: 0, function: { arguments: 'ty":"Par' } },
        { index: 0, function: { arguments: 'is"}' } },
        { index: 1, id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '' } },
        { index: 1, function: { arguments: '{"city":' } },
        { index: 1, function: { arguments: '"Oslo"}' } },
      ]);
      const sent = upstream.requests.at(-1)!.body;
      expect(sent).toMatchObject({ tool_choice: 'auto', parallel_tool_calls: true, tools: [{ type: 'function', function: { name: 'get_weather' } }] });

      upstream.enqueue({ kind: 'stream', chunks: toolCallChunks(calls) });
      const whole = await openai.chat.completions.create({ model: upstreamLlm, messages: [{ role: 'user', content: 'weather' }], tools: [weatherTool] });
      expect(whole.choices[0]!.finish_reason).toBe('tool_calls');
      expect(whole.choices[0]!.message.tool_calls).toEqual([
        { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      ]);
    });

    it('forwards image parts to the upstream and strips the platform-only tool_call_name', async () => {
      upstream.enqueue({ kind: 'stream', chunks: textChunks(['ok']) });
      const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
      const response = await post({
        model: upstreamLlm,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'what is this' }, image] },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', tool_call_name: 'look', content: 'a cat' },
        ],
      });
      expect(response.status).toBe(200);
      const messages = upstream.requests.at(-1)!.body.messages as Array<Record<string, unknown>>;
      expect((messages[0]!.content as unknown[])[1]).toEqual(image);
      expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'a cat' });
    });
  });

  describe('authentication', () => {
    it('accepts a usage token as the OpenAI key, an API key as the bearer, and an API key in x-api-key', async () => {
      const { token } = await test.client.usage.createToken({ human: 'olivia' });
      const asToken = await createOpenAiClient({ baseUrl, usageToken: token, openAiOptions: { maxRetries: 0 } });
      const bearerKey = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: test.server.apiKey, maxRetries: 0 });
      const headerKey = new OpenAI({
        baseURL: `${baseUrl}/v1`,
        apiKey: 'unused',
        defaultHeaders: { 'x-api-key': test.server.apiKey, 'x-human-id': 'olivia' },
        maxRetries: 0,
      });
      for (const client of [asToken, bearerKey, headerKey]) {
        const completion = await client.chat.completions.create({ model: 'builtin-offline', messages: [{ role: 'user', content: 'auth check' }] });
        expect(completion.choices[0]!.message.content).toContain('auth check');
        upstream.enqueue({ kind: 'stream', chunks: textChunks(['streamed']) });
        const stream = await client.chat.completions.create({ model: upstreamLlm, messages: [{ role: 'user', content: 'x' }], stream: true });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        expect(text).toBe('streamed');
      }
    });

    it('rejects a wrong key, a wrong bearer and no credentials with 401', async () => {
      for (const client of [
        new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: 'pk_wrong_key_0000000000000000000', maxRetries: 0 }),
        new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: 'not-a-token', maxRetries: 0 }),
      ]) {
        const error = await client.chat.completions
          .create({ model: 'builtin-offline', messages: [{ role: 'user', content: 'x' }] })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      }
      expect((await post({ model: 'builtin-offline', messages: [{ role: 'user', content: 'x' }] }, {})).status).toBe(401);
    });

    it("keeps a human's own LLM away from other humans", async () => {
      const { token: aliceToken } = await test.client.usage.createToken({ human: 'alice' });
      const { token: bobToken } = await test.client.usage.createToken({ human: 'bob' });
      const asAlice = test.clientWith({ usageToken: aliceToken });
      const own = await asAlice.llms.create({ name: 'alice llm', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl });
      upstream.enqueue({ kind: 'stream', chunks: textChunks(['mine']) });
      const aliceOpenAi = await createOpenAiClient({ baseUrl, usageToken: aliceToken, openAiOptions: { maxRetries: 0 } });
      const mine = await aliceOpenAi.chat.completions.create({ model: own.id, messages: [{ role: 'user', content: 'x' }] });
      expect(mine.choices[0]!.message.content).toBe('mine');
      const response = await post({ model: own.id, messages: [{ role: 'user', content: 'x' }] }, { authorization: `Bearer ${bobToken}` });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain('model');
    });
  });

  describe('validation', () => {
    const valid = { model: 'builtin-offline', messages: [{ role: 'user', content: 'hi' }] };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['no messages', { ...valid, messages: [] }, 'messages'],
      ['missing model', { messages: valid.messages }, 'model'],
      ['unknown role', { ...valid, messages: [{ role: 'wizard', content: 'x' }] }, 'messages[0]'],
      ['empty user parts', { ...valid, messages: [{ role: 'user', content: [] }] }, 'messages[0].content'],
      ['empty system parts', { ...valid, messages: [{ role: 'system', content: [] }] }, 'messages[0].content'],
      [
        'non-text system part',
        { ...valid, messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] }] },
        'messages[0].content',
      ],
      [
        'bad audio format',
        { ...valid, messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'flac' } }] }] },
        'messages[0].content',
      ],
      ['tool message without tool_call_id', { ...valid, messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
      ['max_tokens above 4096', { ...valid, max_tokens: 4097 }, 'max_tokens'],
      ['max_tokens zero', { ...valid, max_tokens: 0 }, 'max_tokens'],
      ['bad tool name', { ...valid, tools: [{ type: 'function', function: { name: 'has space' } }] }, 'tools[0].function.name'],
      ['tool name too long', { ...valid, tools: [{ type: 'function', function: { name: 'a'.repeat(65) } }] }, 'tools[0].function.name'],
      [
        'undeclared tool_choice',
        { ...valid, tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'other' } } },
        'tool_choice.function.name',
      ],
      ['tool_choice without tools', { ...valid, tool_choice: 'required' }, 'tool_choice'],
      ['bad tool_choice', { ...valid, tools: [weatherTool], tool_choice: 'sometimes' }, 'tool_choice'],
      ['temperature out of range', { ...valid, temperature: 3 }, 'temperature'],
      ['unknown model', { ...valid, model: 'no-such-llm' }, 'model'],
    ];
    it.each(cases)('%s -> 400 invalid_input naming the field', async (_name, body, field) => {
      const response = await post(body);
      expect(response.status).toBe(400);
      const error = (await response.json()) as { type: string; message: string };
      expect(error.type).toBe('invalid_input');
      expect(error.message).toContain(field);
    });
  });

  describe('per-human token limits', () => {
    it('refuses a human at the limit with usage_limit_exceeded before calling the upstream, streamed or not', async () => {
      await test.client.usage.updateLimits({ human: 'limited', limits: [{ type: 'token_cnt', value: 60 }] });
      const { token } = await test.client.usage.createToken({ human: 'limited' });
      const client = await createOpenAiClient({ baseUrl, usageToken: token, openAiOptions: { maxRetries: 0 } });
      const request = { model: upstreamLlm, max_tokens: 20, messages: [{ role: 'user' as const, content: 'count me' }] };
      let served = 0;
      for (let attempt = 0; attempt < 10; attempt += 1) {
        upstream.enqueue({ kind: 'stream', chunks: textChunks(['a', 'b']), usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } });
        const result = await client.chat.completions.create(request).catch((caught: unknown) => caught);
        if (result instanceof OpenAI.BadRequestError) break;
        served += 1;
      }
      expect(served).toBe(3);
      const calls = upstream.requests.length;
      const plain = await post(request, { authorization: `Bearer ${token}` });
      expect(plain.status).toBe(400);
      expect(((await plain.json()) as { type: string }).type).toBe('usage_limit_exceeded');
      const streamed = await post({ ...request, stream: true }, { authorization: `Bearer ${token}` });
      expect(streamed.status).toBe(400);
      expect(((await streamed.json()) as { type: string }).type).toBe('usage_limit_exceeded');
      expect(upstream.requests.length).toBe(calls);
      // Another human is unaffected.
      const other = await createOpenAiClient({ baseUrl, apiKey: test.server.apiKey, humanId: 'unlimited', openAiOptions: { maxRetries: 0 } });
      await expect(other.chat.completions.create({ model: 'builtin-offline', messages: [{ role: 'user', content: 'x' }] })).resolves.toBeTruthy();
      // Drain the scripted scenario the refused request left queued.
      await openai.chat.completions.create(request);
    });
  });
});
