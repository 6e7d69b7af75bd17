import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestPlatform, type TestPlatform } from '../../src/testing.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';

/**
 * OpenAI's Chat Completions parameters through the gateway, with the `openai` package against a real test platform:
 * every field reaches a recording upstream exactly as given, the offline model honours what it can and refuses the
 * rest with 400 naming the field, and `developer` messages reach upstreams with or without the role.
 */
describe('chat completions: every OpenAI parameter (openai package)', () => {
  let platform: TestPlatform;
  let upstream: FakeOpenAiUpstream;
  let openai: OpenAI;
  let projectLlm: string;
  const offline = 'builtin-offline';

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    platform = await createTestPlatform({
      config: { llm: { openaiApiKey: 'sk-platform-test', openaiBaseUrl: upstream.baseUrl, openaiModels: ['gpt-4o-mini'] } },
    });
    const baseUrl = await platform.server.listen(0, '127.0.0.1');
    openai = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: platform.server.apiKey, defaultHeaders: { 'x-api-key': platform.server.apiKey }, maxRetries: 0 });
    const llm = await platform.client.llms.create({ name: 'recording upstream', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl });
    projectLlm = llm.id;
  });
  afterAll(async () => {
    await platform.close();
    await upstream.close();
  });

  const lastUpstreamBody = () => upstream.requests.at(-1)!.body;

  describe('developer role', () => {
    it('is answered by the offline model and reaches an OpenAI upstream as developer, a generic one as system', async () => {
      const messages = [
        { role: 'developer' as const, content: 'Talk like a pirate.' },
        { role: 'user' as const, content: 'Are semicolons optional in JavaScript?' },
      ];
      const answer = await openai.chat.completions.create({ model: offline, messages });
      expect(answer.choices[0]!.message.content).toContain('Are semicolons optional in JavaScript?');

      await openai.chat.completions.create({ model: 'builtin-openai-gpt-4o-mini', messages });
      expect(lastUpstreamBody().messages).toEqual(messages);

      await openai.chat.completions.create({ model: projectLlm, messages });
      expect(lastUpstreamBody().messages).toEqual([{ role: 'system', content: 'Talk like a pirate.' }, messages[1]]);
    });
  });

  describe('a hosted upstream', () => {
    it('receives every answer-shaping field exactly as given, streamed or not', async () => {
      const fields = {
        n: 2,
        stop: ['END', 'STOP'],
        seed: 42,
        logprobs: true,
        top_logprobs: 3,
        response_format: { type: 'json_schema' as const, json_schema: { name: 'answer', strict: true, schema: { type: 'object', properties: {} } } },
        max_completion_tokens: 77,
        reasoning_effort: 'low' as const,
        verbosity: 'low' as const,
        top_p: 0.5,
        frequency_penalty: 0.25,
        presence_penalty: -0.5,
        logit_bias: { '50256': -100 },
        user: 'user-1234',
        safety_identifier: 'hashed-user',
        prompt_cache_key: 'cache-key',
        prompt_cache_retention: '24h' as const,
        prediction: { type: 'content' as const, content: 'predicted text' },
        store: true,
        service_tier: 'flex' as const,
        temperature: 0.3,
        parallel_tool_calls: false,
        tools: [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
        tool_choice: { type: 'function' as const, function: { name: 'lookup' } },
        metadata: { purpose: 'conformance' },
      };
      const messages = [{ role: 'user' as const, content: 'Hi' }];
      await openai.chat.completions.create({ model: projectLlm, messages, ...fields });
      const body = lastUpstreamBody();
      for (const [name, value] of Object.entries(fields)) expect({ [name]: body[name] }).toEqual({ [name]: value });
      expect(body).not.toHaveProperty('max_tokens');

      const stream = await openai.chat.completions.create({ model: projectLlm, messages, ...fields, stream: true });
      for await (const _chunk of stream) void _chunk;
      const streamed = lastUpstreamBody();
      for (const [name, value] of Object.entries(fields)) expect({ [name]: streamed[name] }).toEqual({ [name]: value });
    });

    it('passes max_tokens as max_tokens, and metadata only with store: true, without the platform’s own key', async () => {
      const messages = [{ role: 'user' as const, content: 'Hi' }];
      await openai.chat.completions.create({ model: projectLlm, messages, max_tokens: 12, metadata: { moderation: 'false', tag: 'a' } });
      expect(lastUpstreamBody()).toMatchObject({ max_tokens: 12 });
      expect(lastUpstreamBody()).not.toHaveProperty('max_completion_tokens');
      expect(lastUpstreamBody()).not.toHaveProperty('metadata');
      await openai.chat.completions.create({ model: projectLlm, messages, store: true, metadata: { moderation: 'false', tag: 'a' } });
      expect(lastUpstreamBody()).toMatchObject({ store: true, metadata: { tag: 'a' } });
    });

    it("returns the upstream's n choices and token logprobs, whole and streamed", async () => {
      const logprob = (token: string) => ({ token, logprob: -0.25, bytes: [...Buffer.from(token)], top_logprobs: [] });
      const chunks = [
        { delta: { role: 'assistant' as const, content: 'Yes' }, index: 0, logprobs: { content: [logprob('Yes')] } },
        { delta: { role: 'assistant' as const, content: 'No' }, index: 1, logprobs: { content: [logprob('No')] } },
        { delta: {}, index: 0, finish_reason: 'stop' as const },
        { delta: {}, index: 1, finish_reason: 'stop' as const },
      ];
      upstream.enqueue({ kind: 'stream', chunks }, { kind: 'stream', chunks });
      const request = { model: projectLlm, messages: [{ role: 'user' as const, content: 'Yes or no?' }], n: 2, logprobs: true };
      const whole = await openai.chat.completions.create(request);
      expect(whole.choices.map((choice) => [choice.index, choice.message.content, choice.logprobs?.content?.[0]?.token])).toEqual([
        [0, 'Yes', 'Yes'],
        [1, 'No', 'No'],
      ]);
      const streamed = await openai.chat.completions.stream(request).finalChatCompletion();
      expect(streamed.choices.map((choice) => [choice.index, choice.message.content, choice.logprobs?.content?.[0]?.logprob])).toEqual([
        [0, 'Yes', -0.25],
        [1, 'No', -0.25],
      ]);
    });
  });

  describe('the offline model', () => {
    const ask = { model: offline, messages: [{ role: 'user' as const, content: 'Please remember that the meeting moves to Friday afternoon' }] };

    it('parses structured output (chat.completions.parse with a zod schema) that validates against the schema', async () => {
      const Event = z.object({
        title: z.string(),
        attendees: z.array(z.object({ name: z.string(), email: z.email() })).min(2),
        day: z.enum(['monday', 'friday']),
        starts_at: z.iso.datetime(),
        duration_minutes: z.number().int().min(15).max(240),
        remote: z.boolean().nullable(),
      });
      const completion = await openai.chat.completions.parse({ ...ask, response_format: zodResponseFormat(Event, 'event') });
      const parsed = completion.choices[0]!.message.parsed;
      expect(Event.parse(parsed)).toEqual(parsed);
      expect(parsed!.attendees).toHaveLength(2);
      expect(parsed!.duration_minutes).toBe(15);
      expect(parsed!.title).toContain('meeting moves to Friday');
    });

    it('answers json_object with a JSON object, and refuses a schema it cannot meet, naming the field', async () => {
      const answer = await openai.chat.completions.create({ ...ask, response_format: { type: 'json_object' } });
      expect(JSON.parse(answer.choices[0]!.message.content!)).toEqual({ reply: expect.stringContaining('Friday afternoon') as unknown });
      const schema = {
        type: 'object',
        properties: { code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' } },
        required: ['code'],
        additionalProperties: false,
      };
      const refused = openai.chat.completions.create({ ...ask, response_format: { type: 'json_schema', json_schema: { name: 'code', strict: true, schema } } });
      await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining('response_format.json_schema.schema') as unknown });
    });

    it('honours max_completion_tokens (finish length), stop sequences and n choices', async () => {
      const limited = await openai.chat.completions.create({ ...ask, max_completion_tokens: 3 });
      expect(limited.choices[0]!.finish_reason).toBe('length');
      expect(limited.choices[0]!.message.content).toBe('You said: "Please');
      expect(limited.usage!.completion_tokens).toBe(3);

      const stopped = await openai.chat.completions.create({ ...ask, stop: ['Friday', 'meeting'] });
      expect(stopped.choices[0]!.message.content).toBe('You said: "Please remember that the ');
      expect(stopped.choices[0]!.finish_reason).toBe('stop');

      const three = await openai.chat.completions.create({ ...ask, n: 3, max_completion_tokens: 4 });
      expect(three.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
      expect(new Set(three.choices.map((choice) => choice.message.content))).toEqual(new Set(['You said: "Please remember']));
      expect(three.usage!.completion_tokens).toBe(12);

      const streamed = await openai.chat.completions.stream({ ...ask, n: 2, stop: 'meeting' }).finalChatCompletion();
      expect(streamed.choices.map((choice) => choice.message.content)).toEqual([
        'You said: "Please remember that the ',
        'You said: "Please remember that the ',
      ]);
    });

    it('gives each token its log probability (0: the deterministic model is certain)', async () => {
      const answer = await openai.chat.completions.create({ ...ask, logprobs: true, top_logprobs: 2, max_completion_tokens: 2 });
      expect(answer.choices[0]!.logprobs!.content).toEqual([
        { token: 'You', logprob: 0, bytes: [...Buffer.from('You')], top_logprobs: [{ token: 'You', logprob: 0, bytes: [...Buffer.from('You')] }] },
        { token: ' said:', logprob: 0, bytes: [...Buffer.from(' said:')], top_logprobs: [{ token: ' said:', logprob: 0, bytes: [...Buffer.from(' said:')] }] },
      ]);
    });

    it('takes the fields it honours (seed, temperature, top_p, prediction, user, store: false...) with the same answer', async () => {
      const plain = await openai.chat.completions.create(ask);
      const honoured = await openai.chat.completions.create({
        ...ask,
        seed: 7,
        temperature: 1.5,
        top_p: 0.1,
        prediction: { type: 'content', content: 'anything' },
        user: 'u',
        safety_identifier: 's',
        prompt_cache_key: 'k',
        store: false,
        service_tier: 'auto',
        reasoning_effort: 'none',
        frequency_penalty: 0,
        metadata: { tag: 'x' },
      });
      expect(honoured.choices[0]!.message.content).toBe(plain.choices[0]!.message.content);
    });

    const refusals: Array<[string, Record<string, unknown>]> = [
      ['reasoning_effort', { reasoning_effort: 'high' }],
      ['verbosity', { verbosity: 'low' }],
      ['frequency_penalty', { frequency_penalty: 1 }],
      ['presence_penalty', { presence_penalty: -1 }],
      ['logit_bias', { logit_bias: { '1': 5 } }],
      ['store', { store: true }],
      ['service_tier', { service_tier: 'priority' }],
      ['web_search_options', { web_search_options: {} }],
      ['moderation', { moderation: { model: 'omni-moderation-latest' } }],
      ['functions', { functions: [{ name: 'f' }] }],
      ['function_call', { function_call: 'auto' }],
    ];
    it.each(refusals)('refuses %s with 400 naming the field', async (field, extra) => {
      const refused = openai.chat.completions.create({ ...ask, ...extra } as OpenAI.ChatCompletionCreateParamsNonStreaming);
      await expect(refused).rejects.toBeInstanceOf(OpenAI.BadRequestError);
      await expect(refused).rejects.toMatchObject({ message: expect.stringContaining(`${field}:`) as unknown });
    });
  });

  it('refuses a field the API does not have, naming it, instead of dropping it', async () => {
    const refused = openai.chat.completions.create({ ...{ model: offline, messages: [{ role: 'user', content: 'Hi' }] }, max_output_tokens: 5 } as never);
    await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining('max_output_tokens') as unknown });
    const orphan = openai.chat.completions.create({ model: offline, messages: [{ role: 'user', content: 'Hi' }], top_logprobs: 2 });
    await expect(orphan).rejects.toMatchObject({ status: 400, message: expect.stringContaining('top_logprobs') as unknown });
  });
});
