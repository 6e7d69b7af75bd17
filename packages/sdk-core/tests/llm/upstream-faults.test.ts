import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../src/client/openai.js';
import { BadRequestError, UpstreamError } from '../../src/errors/api-error.js';
import { createOpenAiCompatibleModel } from '../../src/server/engines/llm/openai-compatible-model.js';
import { startFakeOpenAiUpstream, textChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { readEvents } from './sse-reader.js';

// Upstream faults involve no storage: one store suffices (the store matrix runs in chat-completions.test.ts).
describe('upstream faults and aborts', () => {
  let test: TestServer;
  let upstream: FakeOpenAiUpstream;
  let baseUrl: string;
  let openai: OpenAI;
  let llm: string;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    test = await startTestServer('sqlite', { config: { llm: { firstChunkTimeoutMs: 300, idleTimeoutMs: 400 } } });
    baseUrl = await test.server.listen(0, '127.0.0.1');
    openai = await createOpenAiClient({ baseUrl, apiKey: test.server.apiKey, openAiOptions: { maxRetries: 0 } });
    llm = (await test.client.llms.create({ name: 'fake', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl })).id;
  });
  afterAll(async () => {
    await test.close();
    await upstream.close();
  });

  const streamRaw = async (signal?: AbortSignal) => {
    const sentAt = performance.now();
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey },
      body: JSON.stringify({ model: llm, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      ...(signal ? { signal } : {}),
    });
    return { response, sentAt };
  };

  const collect = async (stream: AsyncIterable<OpenAI.ChatCompletionChunk>) => {
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    return text;
  };

  describe('before the first byte: retried', () => {
    it.each([
      ['429 with Retry-After', [{ kind: 'error' as const, status: 429, headers: { 'retry-after': '0' } }]],
      [
        '500 then 503',
        [
          { kind: 'error' as const, status: 500 },
          { kind: 'error' as const, status: 503 },
        ],
      ],
      ['a connection reset', [{ kind: 'reset-before-headers' as const }]],
      ['a stall longer than the first-chunk timeout', [{ kind: 'stall-before-first-chunk' as const, ms: 1500 }]],
    ])('%s, then success: the client sees one clean answer', async (_name, faults) => {
      upstream.enqueue(...faults, { kind: 'stream', chunks: textChunks(['once', ' only']) });
      const before = upstream.requests.length;
      const text = await collect(await openai.chat.completions.create({ model: llm, stream: true, messages: [{ role: 'user', content: 'hi' }] }));
      expect(text).toBe('once only');
      expect(upstream.requests.length - before).toBe(faults.length + 1);
    });

    it('honours Retry-After before retrying', async () => {
      upstream.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '1' } }, { kind: 'stream', chunks: textChunks(['late']) });
      const before = upstream.requests.length;
      const whole = await openai.chat.completions.create({ model: llm, messages: [{ role: 'user', content: 'hi' }] });
      expect(whole.choices[0]!.message.content).toBe('late');
      expect(upstream.requests.length - before).toBe(2);
      // The model waits what the upstream asked for before its second attempt (not its own backoff).
      upstream.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '1' } }, { kind: 'stream', chunks: textChunks(['later']) });
      const retries: Array<{ attempt: number; delayMs: number }> = [];
      const model = createOpenAiCompatibleModel({
        id: 'fake',
        url: upstream.chatUrl,
        model: 'fake-gpt',
        onRetry: ({ attempt, delayMs }) => retries.push({ attempt, delayMs }),
      });
      let text = '';
      for await (const delta of model.stream(
        { messages: [{ role: 'user', content: 'hi' }], toolChoice: 'none', parallelToolCalls: false },
        { signal: new AbortController().signal },
      )) {
        if (delta.type === 'text') text += delta.text;
      }
      expect(text).toBe('later');
      expect(retries).toEqual([{ attempt: 1, delayMs: 1000 }]);
    });

    it('gives up after the attempts with a clear error status, not a stream, and never for a client error', async () => {
      upstream.enqueue({ kind: 'error', status: 500 }, { kind: 'error', status: 500 }, { kind: 'error', status: 500 });
      const { response } = await streamRaw();
      expect(response.status).toBe(502);
      const body = (await response.json()) as { type: string; message: string };
      expect(body.type).toBe('upstream_error');
      expect(body.message).toMatch(new RegExp(`^LLM 'fake' \\(${llm}\\): upstream LLM failed after 3 attempts`));

      upstream.enqueue({ kind: 'error', status: 404, message: 'model fake-gpt does not exist' });
      const before = upstream.requests.length;
      const error = await openai.chat.completions.create({ model: llm, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(upstream.requests.length - before).toBe(1);
    });

    it('does not wait for a Retry-After longer than the policy allows: it gives up after the one attempt', async () => {
      upstream.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '3600' } });
      const before = upstream.requests.length;
      const { response } = await streamRaw();
      expect(response.status).toBe(502);
      expect(((await response.json()) as { message: string }).message).toMatch(/upstream LLM failed after 1 attempt: /);
      expect(upstream.requests.length - before).toBe(1);
    });
  });

  describe('after the first byte: a clean error event, no retry, no duplicate output', () => {
    it.each([
      ['a connection reset', 'reset' as const, /stream failed/],
      ['a stall', 'stall' as const, /stalled/],
      ['an upstream error event', 'error-event' as const, /failed mid-stream/],
    ])('%s ends the stream with an error event then [DONE]', async (_name, after, message) => {
      upstream.enqueue({ kind: 'stream', chunks: [{ delta: { role: 'assistant', content: 'partial' } }, { delta: { content: ' answer' } }], after });
      const before = upstream.requests.length;
      const { response, sentAt } = await streamRaw();
      expect(response.status).toBe(200);
      const events = await readEvents(response, sentAt);
      expect(events.map((event) => event.event ?? 'data').slice(-2)).toEqual(['error', 'data']);
      expect(events.at(-1)!.data).toBe('[DONE]');
      const error = JSON.parse(events.at(-2)!.data) as { error: { type: string; message: string } };
      expect(error.error.type).toBe('upstream_error');
      expect(error.error.message).toMatch(message);
      expect(error.error.message).toContain(`LLM 'fake' (${llm})`);
      const text = events
        .slice(0, -2)
        .map((event) => JSON.parse(event.data).choices[0].delta.content)
        .join('');
      expect(text).toBe('partial answer');
      expect(upstream.requests.length - before).toBe(1);
    });

    it('surfaces a mid-stream failure to the openai client as an APIError after the partial text', async () => {
      upstream.enqueue({ kind: 'stream', chunks: [{ delta: { role: 'assistant', content: 'partial' } }], after: 'reset' });
      const stream = await openai.chat.completions.create({ model: llm, stream: true, messages: [{ role: 'user', content: 'hi' }] });
      let text = '';
      const error = await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })().catch((caught: unknown) => caught);
      expect(text).toBe('partial');
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as Error).message).toMatch(/upstream LLM stream failed/);
    });
  });

  describe('what the upstream answers, read as it says it', () => {
    it('a whole JSON completion to a streamed request is streamed on as its chunks, usage included', async () => {
      upstream.enqueue({ kind: 'whole', chunks: textChunks(['not', ' streamed']), usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } });
      const stream = await openai.chat.completions.create({
        model: llm,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'hi' }],
      });
      let text = '';
      let usage: OpenAI.CompletionUsage | null | undefined;
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      expect(text).toBe('not streamed');
      expect(finish).toBe('stop');
      expect(usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
    });

    it('an error answer that is not JSON, or has no body, still names its status and text', async () => {
      upstream.enqueue({ kind: 'error', status: 403, body: 'Forbidden by the proxy in front of the model' });
      const plain = await openai.chat.completions.create({ model: llm, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
      expect(plain).toBeInstanceOf(OpenAI.BadRequestError);
      expect((plain as Error).message).toContain('upstream LLM failed after 1 attempt: 403 Forbidden by the proxy in front of the model');
      upstream.enqueue({ kind: 'error', status: 401, body: '' });
      const empty = await openai.chat.completions.create({ model: llm, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
      expect((empty as Error).message).toContain('401 status code (no body)');
    });

    it("sends the model its JSON body with the LLM's headers, asking for an event stream", async () => {
      const before = upstream.requests.length;
      await openai.chat.completions.create({ model: llm, messages: [{ role: 'user', content: 'hi' }] });
      const [seen] = upstream.requests.slice(before);
      expect(seen!.headers['content-type']).toBe('application/json');
      expect(seen!.headers.accept).toContain('text/event-stream');
      expect(seen!.body).toMatchObject({
        model: 'fake-gpt',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'hi' }],
      });
    });
  });

  it('an unreachable upstream is a 502 upstream_error naming the LLM and the cause, streamed or not', async () => {
    const closed = await startFakeOpenAiUpstream();
    const chatUrl = closed.chatUrl;
    await closed.close(); // nothing listens there any more
    const unreachable = (await test.client.llms.create({ name: 'gone', description: '', headers: [], model: 'fake-gpt', post_url: chatUrl })).id;
    for (const stream of [false, true]) {
      const error = await openai.chat.completions
        .create({ model: unreachable, stream, messages: [{ role: 'user', content: 'hi' }] } as never)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      expect((error as Error).message).toMatch(
        new RegExp(`LLM 'gone' \\(${unreachable}\\): upstream LLM failed after 3 attempts: connection to 127\\.0\\.0\\.1:\\d+ failed \\(.*ECONNREFUSED`),
      );
    }
    // The platform's own client gives the error class of the status.
    const typed = await test.client.chat.completions
      .create({ model: unreachable, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(UpstreamError.isInstance(typed)).toBe(true);
  });

  it('refuses URLs that carry credentials (user@host) when an LLM or a tool is defined', async () => {
    const disguised = `http://api.example.com@127.0.0.1:${new URL(upstream.chatUrl).port}/v1/chat/completions`;
    for (const post_url of [disguised, 'https://user:secret@api.example.com/v1/chat/completions']) {
      const created = await test.client.llms.create({ name: 'x', description: '', headers: [], model: 'm', post_url }).catch((caught: unknown) => caught);
      expect(BadRequestError.isInstance(created), String(created)).toBe(true);
      expect((created as Error).message).toMatch(/^post_url: credentials in the URL/);
      const updated = await test.client.llms
        .update(llm, { name: 'fake', description: '', headers: [], model: 'fake-gpt', post_url })
        .catch((caught: unknown) => caught);
      expect((updated as Error).message).toMatch(/^post_url: credentials in the URL/);
    }
    const tool = await test.client.tools
      .create({
        name: 'lookup',
        description: 'd',
        parameters: [],
        call_settings: { destination: { type: 'web_request', url: 'https://user:pw@tools.example.com/hook' } },
      } as never)
      .catch((caught: unknown) => caught);
    expect(BadRequestError.isInstance(tool), String(tool)).toBe(true);
    expect((tool as Error).message).toMatch(/credentials in the URL/);
    // The stored LLM still points at the fake upstream.
    expect((await test.client.llms.retrieve(llm)).post_url).toBe(upstream.chatUrl);
  });

  it('refuses a loopback post_url when loopback is not allowed (SSRF): at create, and at call time for LLMs stored before', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'palaver-ssrf-'));
    const database = join(folder, 'palaver.db');
    try {
      // Stored while loopback was allowed...
      const permissive = await startTestServer('sqlite', { config: { database, llm: { allowLoopback: true } } });
      const stored = await permissive.client.llms.create({ name: 'local', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl });
      // A host name is judged on the address a connection resolves it to.
      const byName = await permissive.client.llms.create({
        name: 'by name',
        description: '',
        headers: [],
        model: 'fake-gpt',
        post_url: upstream.chatUrl.replace('127.0.0.1', 'localhost'),
      });
      await permissive.close();
      // ...then the configuration was tightened.
      const strict = await startTestServer('sqlite', { config: { database, llm: { allowLoopback: false } } });
      try {
        const refused = await strict.client.llms
          .create({ name: 'local2', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl })
          .catch((caught: unknown) => caught);
        expect((refused as { status?: number }).status).toBe(400);
        const before = upstream.requests.length;
        const response = await strict.server.fetch(
          new Request('http://palaver.test/v1/chat/completions', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': strict.server.apiKey },
            body: JSON.stringify({ model: stored.id, messages: [{ role: 'user', content: 'hi' }] }),
          }),
        );
        expect(response.status).toBe(400);
        expect(((await response.json()) as { message: string }).message).toMatch(/model: .*loopback/);
        const named = await strict.server.fetch(
          new Request('http://palaver.test/v1/chat/completions', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': strict.server.apiKey },
            body: JSON.stringify({ model: byName.id, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
          }),
        );
        expect(named.status).toBe(400);
        expect(((await named.json()) as { message: string }).message).toMatch(/model: the LLM's post_url resolves to a loopback address/);
        expect(upstream.requests.length).toBe(before);
      } finally {
        await strict.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  describe('client disconnect', () => {
    // Paced well inside the idle timeout and far longer than any wait here (2000 chunks, 50 ms apart: 100 s): the
    // upstream request only ends before its answer does when the platform aborts it for the client.
    const slowStream = () => ({ kind: 'stream' as const, chunks: textChunks(Array.from({ length: 2000 }, (_, index) => ` w${index}`)), delayMs: 50 });

    it('aborting a raw fetch mid-stream aborts the upstream request', async () => {
      upstream.enqueue(slowStream());
      const controller = new AbortController();
      const { response } = await streamRaw(controller.signal);
      const reader = response.body!.getReader();
      await reader.read();
      const upstreamRequest = upstream.requests.at(-1)!;
      controller.abort();
      await upstream.waitForAbort(upstreamRequest, 20_000);
      expect(upstreamRequest.finishedAt).toBeUndefined();
    });

    it('the openai client aborting its stream aborts the upstream request', async () => {
      upstream.enqueue(slowStream());
      const stream = await openai.chat.completions.create({ model: llm, stream: true, messages: [{ role: 'user', content: 'hi' }] });
      let received = 0;
      for await (const _chunk of stream) {
        received += 1;
        if (received === 3) break;
      }
      const upstreamRequest = upstream.requests.at(-1)!;
      await upstream.waitForAbort(upstreamRequest, 20_000);
      expect(upstreamRequest.finishedAt).toBeUndefined();
    });

    it('a non-streamed request abandoned by its client aborts the upstream request', async () => {
      upstream.enqueue(slowStream());
      const controller = new AbortController();
      const pending = openai.chat.completions
        .create({ model: llm, messages: [{ role: 'user', content: 'hi' }] }, { signal: controller.signal })
        .catch((caught: unknown) => caught);
      const deadline = performance.now() + 20_000;
      while (upstream.requests.at(-1)?.body.model !== 'fake-gpt' || upstream.requests.at(-1)?.finishedAt !== undefined) {
        if (performance.now() > deadline) throw new Error('upstream never got the request');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
      controller.abort();
      expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError);
      const upstreamRequest = upstream.requests.at(-1)!;
      await upstream.waitForAbort(upstreamRequest, 20_000);
      expect(upstreamRequest.finishedAt).toBeUndefined();
    });
  });
});
