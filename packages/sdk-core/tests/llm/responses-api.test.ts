import OpenAI from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOpenAiClient } from '../../src/client/openai.js';
import { ResponseObject } from '../../src/contract/responses-object.js';
import { ResponseStreamEvent } from '../../src/contract/responses-events.js';
import { startFakeOpenAiUpstream, textChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The Responses API (`/v1/responses`) with the official `openai` client: text, conversations, storage, streaming, access. */
describe.each(await storeKinds())('POST /v1/responses (%s)', (kind) => {
  let test: TestServer;
  let upstream: FakeOpenAiUpstream;
  let baseUrl: string;
  let openai: OpenAI;
  let upstreamLlm: string;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    test = await startTestServer(kind, { config: { llm: { responsesRetentionDays: 7 } } });
    baseUrl = await test.server.listen(0, '127.0.0.1');
    openai = await createOpenAiClient({ baseUrl, apiKey: test.server.apiKey, openAiOptions: { maxRetries: 0 } });
    const llm = await test.client.llms.create({ name: 'fake upstream', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl });
    upstreamLlm = llm.id;
  });
  afterAll(async () => {
    await test?.close();
    await upstream?.close();
  });

  const clientFor = (human: string) => createOpenAiClient({ baseUrl, apiKey: test.server.apiKey, humanId: human, openAiOptions: { maxRetries: 0 } });
  const messagesSent = (index: number) => upstream.requests[index]!.body.messages as Array<{ role: string; content: unknown }>;

  it('answers a text input with the built-in model: one message item, completed, with usage', async () => {
    const response = await openai.responses.create({ model: 'builtin-offline', input: 'The sky is green today' });
    expect(ResponseObject.parse(response)).toBeTruthy();
    expect(response).toMatchObject({ object: 'response', status: 'completed', model: 'builtin-offline', previous_response_id: null, error: null });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output).toHaveLength(1);
    expect(response.output[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(response.output_text).toContain('The sky is green today');
    expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);
    expect(response.usage!.output_tokens).toBeGreaterThan(3);
  });

  it('sends instructions as a system message first, and previous_response_id continues the conversation without them', async () => {
    const before = upstream.requests.length;
    upstream.enqueue({ kind: 'stream', chunks: textChunks(['Nice', ' to', ' meet', ' you,', ' Ada.']) });
    upstream.enqueue({ kind: 'stream', chunks: textChunks(['Your', ' name', ' is', ' Ada.']) });
    const first = await openai.responses.create({ model: upstreamLlm, instructions: 'Be brief.', input: 'My name is Ada.' });
    expect(first.output_text).toBe('Nice to meet you, Ada.');
    expect(messagesSent(before)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'My name is Ada.' }] },
    ]);
    const second = await openai.responses.create({ model: upstreamLlm, previous_response_id: first.id, input: 'What is my name?' });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.instructions).toBeNull();
    expect(second.output_text).toBe('Your name is Ada.');
    expect(messagesSent(before + 1)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'My name is Ada.' }] },
      { role: 'assistant', content: 'Nice to meet you, Ada.' },
      { role: 'user', content: [{ type: 'text', text: 'What is my name?' }] },
    ]);
  });

  it('retrieves a stored response, lists its input items page by page, and deletes it (then 404)', async () => {
    const input = ['one', 'two', 'three'].map((text) => ({ role: 'user' as const, content: text }));
    const created = await openai.responses.create({ model: 'builtin-offline', input });
    const retrieved = await openai.responses.retrieve(created.id);
    expect(retrieved.output).toEqual(created.output);
    expect(retrieved.usage).toEqual(created.usage);
    // Kept for the configured retention (PALAVER_RESPONSES_RETENTION_DAYS, 7 days here).
    const row = await test.server.services.store.db
      .selectFrom('responses')
      .select(['created_at', 'expires_at'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(Math.round((Date.parse(row.expires_at) - Date.parse(row.created_at)) / 86_400_000)).toBe(7);

    const newestFirst = await openai.responses.inputItems.list(created.id, { limit: 2 });
    expect(newestFirst.data.map((item) => item.type === 'message' && item.content[0]?.type === 'input_text' && item.content[0].text)).toEqual(['three', 'two']);
    expect(newestFirst.has_more).toBe(true);
    const all: string[] = [];
    for await (const item of openai.responses.inputItems.list(created.id, { limit: 2, order: 'asc' })) {
      if (item.type === 'message' && item.content[0]?.type === 'input_text') all.push(item.content[0].text);
      expect(item.id).toMatch(/^msg_/);
    }
    expect(all).toEqual(['one', 'two', 'three']);

    expect(await openai.responses.delete(created.id)).toEqual({ id: created.id, object: 'response.deleted', deleted: true });
    await expect(openai.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(openai.responses.inputItems.list(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(openai.responses.delete(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(openai.responses.create({ model: 'builtin-offline', previous_response_id: created.id, input: 'again' })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
  });

  it('responses.parse with a zod schema: the built-in model answers JSON that validates, parsed by the client', async () => {
    const Contact = z.object({ name: z.string(), age: z.number().int(), tags: z.array(z.string()) });
    const parsed = await openai.responses.parse({ model: 'builtin-offline', input: 'Ada is 36.', text: { format: zodTextFormat(Contact, 'contact') } });
    expect(parsed.status).toBe('completed');
    expect(Contact.parse(parsed.output_parsed)).toEqual(parsed.output_parsed);
    expect(JSON.parse(parsed.output_text)).toEqual(parsed.output_parsed);
  });

  it('store: false answers without keeping the response', async () => {
    const response = await openai.responses.create({ model: 'builtin-offline', input: 'forget me', store: false });
    expect(ResponseObject.parse(response).store).toBe(false);
    await expect(openai.responses.retrieve(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('streams typed events in order, numbered from 0, the deltas making the final text; the response is stored when it ends', async () => {
    const input = 'Tell me about streams';
    const whole = await openai.responses.create({ model: 'builtin-offline', input });
    const stream = openai.responses.stream({ model: 'builtin-offline', input });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const final = await stream.finalResponse();
    for (const event of events) expect(ResponseStreamEvent.parse(event)).toBeTruthy();
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    const types = events.map((event) => event.type);
    const deltas = types.filter((type) => type === 'response.output_text.delta').length;
    expect(deltas).toBeGreaterThan(3);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array<string>(deltas).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const text = events.map((event) => (event.type === 'response.output_text.delta' ? event.delta : '')).join('');
    expect(text).toBe(whole.output_text);
    expect(final.output_text).toBe(text);
    expect(final.status).toBe('completed');
    expect(final.usage!.output_tokens).toBeGreaterThan(3);
    expect((await openai.responses.retrieve(final.id)).output_text).toBe(text);
  });

  it("meters the human's tokens like chat completions, and refuses a human at the limit", async () => {
    const human = `responder-${kind}`;
    const client = await clientFor(human);
    const response = await client.responses.create({ model: 'builtin-offline', input: 'count my tokens', metadata: { campaign: 'spring' } });
    const rows = await test.server.services.store.db
      .selectFrom('usage_records')
      .selectAll()
      .where('human', '=', human)
      .where('type', '=', 'token_cnt')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.value).toBe(response.usage!.total_tokens);
    expect(JSON.parse(rows[0]!.metadata)).toMatchObject({ campaign: 'spring', model: 'builtin-offline', outcome: 'completed' });

    await test.client.usage.updateLimits({ human, limits: [{ type: 'token_cnt', value: response.usage!.total_tokens }] });
    const refused = await fetch(`${baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey, 'x-human-id': human },
      body: JSON.stringify({ model: 'builtin-offline', input: 'more', stream: true }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { type: string }).type).toBe('usage_limit_exceeded');
  });

  it("keeps responses per project and human: another human's, the project's and another project's callers get 404", async () => {
    const alice = await clientFor('alice');
    const bob = await clientFor('bob');
    const mine = await alice.responses.create({ model: 'builtin-offline', input: 'private' });
    expect((await alice.responses.retrieve(mine.id)).id).toBe(mine.id);
    await expect(bob.responses.retrieve(mine.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(openai.responses.retrieve(mine.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(bob.responses.delete(mine.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(bob.responses.create({ model: 'builtin-offline', previous_response_id: mine.id, input: 'x' })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const { token } = await test.client.usage.createToken({ human: 'alice' });
    const aliceByToken = await createOpenAiClient({ baseUrl, usageToken: token, openAiOptions: { maxRetries: 0 } });
    expect((await aliceByToken.responses.retrieve(mine.id)).id).toBe(mine.id);

    const otherProject = await test.server.services.projects.create('other');
    const { key } = await test.server.services.apiKeys.create(otherProject, 'test');
    const stranger = await createOpenAiClient({ baseUrl, apiKey: key, humanId: 'alice', openAiOptions: { maxRetries: 0 } });
    await expect(stranger.responses.retrieve(mine.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('refuses bad input with 400 invalid_input naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ input: 'no model' }, 'model'],
      [{ model: 'builtin-offline' }, 'input'],
      [{ model: 'builtin-offline', input: [] }, 'input'],
      [{ model: 'builtin-offline', input: 'x', temperature: 5 }, 'temperature'],
      [{ model: 'builtin-offline', input: 'x', tools: [{ type: 'function', name: 'bad name!' }] }, 'tools'],
      [{ model: 'builtin-offline', input: [{ type: 'function_call_output', call_id: 'call_nobody', output: '42' }] }, 'input[0].call_id'],
      [{ model: 'builtin-offline', input: 'x', previous_response_id: 'resp_missing' }, 'previous_response_id'],
      [{ model: 'no-such-llm', input: 'x' }, 'model'],
      [{ model: 'builtin-offline', input: 'x', frobnicate: true }, 'frobnicate'],
      [{ model: 'builtin-offline', input: 'x', truncation: 'auto' }, 'truncation'],
      [{ model: 'builtin-offline', input: 'x', background: true }, 'background'],
    ];
    for (const [body, field] of cases) {
      const response = await fetch(`${baseUrl}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey },
        body: JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (await response.json()) as { type: string; message: string };
      expect(error.type).toBe('invalid_input');
      expect(error.message, JSON.stringify(body)).toContain(field);
    }
  });
});
