import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../src/client/openai.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** `GET /v1/models` (Palaver extension): the unmodified `openai` client lists and retrieves the caller's LLMs. */
describe('OpenAI model listing with the openai client', () => {
  let test: TestServer;
  let openai: OpenAI;
  let baseUrl: string;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    baseUrl = await test.server.listen(0, '127.0.0.1');
    openai = await createOpenAiClient({ baseUrl, apiKey: test.server.apiKey, openAiOptions: { maxRetries: 0 } });
  });
  afterAll(async () => test?.close());

  it("lists built-in and project LLMs as models; each id works as chat completions' model", async () => {
    const mine = await test.client.llms.create({
      name: 'my model',
      description: '',
      headers: [],
      model: 'llama3',
      post_url: 'http://127.0.0.1:9/v1/chat/completions',
    });
    const models: OpenAI.Models.Model[] = [];
    for await (const model of openai.models.list()) models.push(model);
    expect(models.map((model) => model.id)).toContain('builtin-offline');
    expect(models.find((model) => model.id === mine.id)).toEqual({
      id: mine.id,
      object: 'model',
      created: Math.floor(Date.parse(mine.created_at) / 1000),
      owned_by: test.server.project,
    });
    expect(models.find((model) => model.id === 'builtin-offline')?.owned_by).toBe('palaver');
    const answer = await openai.chat.completions.create({
      model: models.find((model) => model.id === 'builtin-offline')!.id,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(answer.choices[0]?.message.content).toBeTruthy();
  });

  it('retrieves one model; an unknown one is 404 (NotFoundError), and credentials are required', async () => {
    expect(await openai.models.retrieve('builtin-offline')).toMatchObject({ id: 'builtin-offline', object: 'model', owned_by: 'palaver' });
    await expect(openai.models.retrieve('llm_missing')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect((await fetch(`${baseUrl}/v1/models`)).status).toBe(401);
  });

  it("a usage token's human sees the built-ins, the project's shared LLMs and their own, not another human's", async () => {
    const ownerToken = await test.client.usage.createToken({ human: 'owner', ttl_seconds: 600 }).then((answer) => answer.token);
    const ownerClient = await createOpenAiClient({ baseUrl, usageToken: ownerToken, openAiOptions: { maxRetries: 0 } });
    const other = await createOpenAiClient({
      baseUrl,
      usageToken: await test.client.usage.createToken({ human: 'other', ttl_seconds: 600 }).then((answer) => answer.token),
      openAiOptions: { maxRetries: 0 },
    });
    const created = await fetch(`${baseUrl}/v1/llm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'owner model', description: '', headers: [], model: 'x', post_url: 'http://127.0.0.1:9/v1/chat/completions' }),
    }).then((response) => response.json() as Promise<{ id: string }>);
    const ids = async (client: OpenAI) => {
      const found: string[] = [];
      for await (const model of client.models.list()) found.push(model.id);
      return found;
    };
    expect(await ids(ownerClient)).toContain(created.id);
    expect(await ids(other)).not.toContain(created.id);
    expect(await ids(other)).toContain('builtin-offline');
  });
});
