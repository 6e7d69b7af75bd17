// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamChatCompletion } from '../../src/client/chat-stream.js';
import { createOpenAiClient } from '../../src/client/openai.js';
import { BadRequestError, ModerationError } from '../../src/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('client helpers for chat completions', () => {
  let test: TestServer;
  let baseUrl: string;
  let token: string;
  // In process, so the test does not depend on happy-dom's CORS emulation.
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => test.server.fetch(new Request(input, init))) as typeof globalThis.fetch;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    baseUrl = await test.server.listen(0, '127.0.0.1');
    token = (await test.client.usage.createToken({ human: 'browser-user' })).token;
  });
  afterAll(async () => {
    await test.close();
  });

  it('streamChatCompletion yields every chunk of a usage-token stream over fetch-event-source', async () => {
    const chunks = [];
    for await (const chunk of streamChatCompletion({
      baseUrl,
      usageToken: token,
      fetch,
      request: { model: 'builtin-offline', messages: [{ role: 'user', content: 'from the browser' }], stream_options: { include_usage: true } },
    })) {
      chunks.push(chunk);
    }
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toContain('from the browser');
    expect(chunks.at(-1)!.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('streamChatCompletion rejects a refused request with the error family, naming the field', async () => {
    const refused = (async () => {
      for await (const _chunk of streamChatCompletion({ baseUrl, usageToken: token, fetch, request: { model: 'builtin-offline', messages: [] } })) {
        // no chunk expected
      }
    })();
    await expect(refused).rejects.toSatisfy((error: unknown) => BadRequestError.isInstance(error) && (error as Error).message.includes('messages'));
  });

  it('streamChatCompletion rejects an answer refused by moderation mid-stream with ModerationError', async () => {
    // The server side of this refusal is tested in chat-stream-moderation.test.ts; here the client meets the
    // exact event stream the server writes (http/chat-sse.ts), since happy-dom's fetch cannot reach the fake upstream.
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: 'chatcmpl_1', object: 'chat.completion.chunk', created: 1, model: 'llm_1', choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: null }] })}\n\n`;
    const body = `${chunk('')}${chunk('Fine.')}event: error\ndata: ${JSON.stringify({ error: { type: 'moderation_error', code: 'moderation_error', message: 'the text was refused by moderation (violence)' } })}\n\ndata: [DONE]\n\n`;
    const cannedFetch = (async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } })) as typeof globalThis.fetch;
    const received: string[] = [];
    const refused = (async () => {
      for await (const part of streamChatCompletion({
        baseUrl,
        usageToken: token,
        fetch: cannedFetch,
        request: { model: 'llm_1', messages: [{ role: 'user', content: 'hello' }], metadata: { moderation: true } },
      })) {
        received.push(part.choices[0]?.delta.content ?? '');
      }
    })();
    await expect(refused).rejects.toSatisfy(
      (error: unknown) => ModerationError.isInstance(error) && (error as Error).message.includes('refused by moderation'),
    );
    expect(received.join('')).toBe('Fine.');
  });

  it('createOpenAiClient returns an openai client that works with a usage token in a browser', async () => {
    const openai = await createOpenAiClient({ baseUrl, usageToken: token, openAiOptions: { maxRetries: 0, fetch } });
    const completion = await openai.chat.completions.create({ model: 'builtin-offline', messages: [{ role: 'user', content: 'ping' }] });
    expect(completion.choices[0]!.message.content).toContain('ping');
    await expect(createOpenAiClient({ baseUrl })).rejects.toThrow(/usageToken or an apiKey/);
  });
});
