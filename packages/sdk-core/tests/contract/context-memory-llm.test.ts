import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PalaverClient } from '../../src/index.js';
import { loadConfig } from '../../src/server.js';
import { storeKinds } from '../support/databases.js';
import { startFakeOpenAiUpstream, textChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { humanClient } from '../support/human-clients.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(await storeKinds())('context advanced memory extracted by an LLM (%s)', (kind) => {
  let upstream: FakeOpenAiUpstream;
  let test: TestServer;
  let alice: PalaverClient;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    test = await startTestServer(kind, {
      config: {
        webhook: { dispatch: false },
        llm: { openaiApiKey: 'sk-fake', openaiBaseUrl: upstream.baseUrl, openaiModels: ['fake-gpt'], memoryModel: 'builtin-openai-fake-gpt' },
      },
    });
    alice = await humanClient(test, 'alice');
  });
  afterAll(async () => {
    await test?.close();
    await upstream?.close();
  });

  it("asks the configured LLM for the facts as JSON, as the context's human", async () => {
    const answer = {
      facts: [
        { source: 'I', relation: 'lives in', target: 'the Shire', fact: 'user lives in the Shire', exclusive: true },
        { source: 'Sam', relation: 'friend_of', target: 'user', fact: 'Sam is a friend of user' },
      ],
    };
    upstream.enqueue({ kind: 'stream', chunks: textChunks(['```json\n', JSON.stringify(answer), '\n```']) });
    const context = await alice.contexts.create();
    const before = upstream.requests.length;
    await alice.contexts.createMessage(context.id, { role: 'user', content: 'Home, for me, is the Shire; Sam is my friend.', advanced_memory: true });

    const request = upstream.requests[before]!;
    expect(request.body.model).toBe('fake-gpt');
    const messages = request.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]!.role).toBe('system');
    expect(messages[0]!.content).toContain('"user"');
    expect(messages[1]).toEqual({ role: 'user', content: 'Home, for me, is the Shire; Sam is my friend.' });

    const result = await alice.contexts.queryAdvancedMemory(context.id, { new_user_message: 'Where do I live?' });
    const names = new Map(result.nodes.map((node) => [node.id, node.name]));
    expect(result.edges.map((edge) => `${names.get(edge.source_node)} ${edge.relation} ${names.get(edge.target_node)}: ${edge.fact}`).sort()).toEqual([
      'Sam friend_of user: Sam is a friend of user',
      'user lives_in Shire: user lives in the Shire',
    ]);
    // The extraction's tokens are metered to alice like any completion, besides the memory message.
    const usage = await test.server.services.store.db.selectFrom('usage_records').select(['type', 'human']).where('human', '=', 'alice').execute();
    expect(usage.map((row) => row.type).sort()).toEqual(['memory_message_cnt', 'token_cnt']);
  });

  it('takes the model from PALAVER_MEMORY_LLM; none means the offline rules', () => {
    expect(loadConfig({ PALAVER_MEMORY_LLM: 'builtin-openai-gpt-4o-mini' }).llm.memoryModel).toBe('builtin-openai-gpt-4o-mini');
    expect(loadConfig({}).llm.memoryModel).toBeUndefined();
  });

  it('falls back to the offline rules when the model answers no facts JSON', async () => {
    upstream.enqueue({ kind: 'stream', chunks: textChunks(['Sure! ', 'Here are the facts.']) });
    const context = await alice.contexts.create();
    const before = upstream.requests.length;
    await alice.contexts.createMessage(context.id, { role: 'user', content: 'I work at Acme.', advanced_memory: true });
    expect(upstream.requests.length).toBe(before + 1);
    const result = await alice.contexts.queryAdvancedMemory(context.id, { new_user_message: 'Where do I work?' });
    expect(result.edges.map((edge) => [edge.relation, edge.fact])).toEqual([['works_at', 'user works at Acme']]);
  });
});
