import { describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError, UsageLimitExceededError, type PalaverClient } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { humanClient, useHumanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';

type QueryResult = Awaited<ReturnType<PalaverClient['contexts']['queryAdvancedMemory']>>;

/** The edges of a query answer as `source relation target` (+ ` (invalidated)`), in the answer's order. */
function readable(result: QueryResult): string[] {
  const names = new Map(result.nodes.map((node) => [node.id, node.name]));
  return result.edges.map(
    (edge) => `${names.get(edge.source_node)} ${edge.relation} ${names.get(edge.target_node)}${edge.invalidated_at ? ' (invalidated)' : ''}`,
  );
}

describe.each(await storeKinds())('context advanced memory (%s)', (kind) => {
  const test = useTestServer(kind, { config: { webhook: { dispatch: false } } });
  const alice = useHumanClient(test, 'alice');
  const bob = useHumanClient(test, 'bob');

  async function memoryUsage(contextId: string) {
    const rows = await test.server.services.store.db
      .selectFrom('usage_records')
      .selectAll()
      .where('type', '=', 'memory_message_cnt')
      .where('project', '=', test.server.project)
      .execute();
    return rows.filter((row) => (JSON.parse(row.metadata) as { context?: string }).context === contextId);
  }

  it('builds nodes and edges from messages appended with advanced_memory, and meters each message', async () => {
    const context = await alice.contexts.create();
    const remember = (content: string) => alice.contexts.createMessage(context.id, { role: 'user', content, advanced_memory: true });
    await remember('Hi, my name is Alice and I live in Paris.');
    await remember('I work at Acme Corp. I like jazz and cats.');
    await remember('What a day!');

    const result = await alice.contexts.queryAdvancedMemory(context.id, { new_user_message: 'Tell me what you know about me.' });
    expect(readable(result).sort()).toEqual(['user likes cats', 'user likes jazz', 'user lives_in Paris', 'user name Alice', 'user works_at Acme Corp']);
    expect(result.nodes.map((node) => node.name).sort()).toEqual(['Acme Corp', 'Alice', 'Paris', 'cats', 'jazz', 'user']);
    const user = result.nodes.find((node) => node.name === 'user')!;
    expect(user.summary).toBe("user's name is Alice. user lives in Paris. user works at Acme Corp. user likes jazz. user likes cats.");
    expect(result.nodes.find((node) => node.name === 'Paris')!.summary).toBe('user lives in Paris.');
    const lives = result.edges.find((edge) => edge.relation === 'lives_in')!;
    expect(lives).toMatchObject({ source_node: user.id, fact: 'user lives in Paris' });
    expect(lives).not.toHaveProperty('invalidated_at');
    expect(Number.isNaN(Date.parse(lives.created_at))).toBe(false);

    // One usage record per ingested message (facts or not), for the context's human, with its outbox event.
    const usage = await memoryUsage(context.id);
    expect(usage).toHaveLength(3);
    expect(usage.every((row) => row.human === 'alice' && row.value === 1)).toBe(true);
    const events = await test.server.services.store.db.selectFrom('webhook_events').select('body').where('type', '=', 'usage.tracked').execute();
    const tracked = events.map((event) => JSON.parse(event.body) as { payload: { id: string } }).map((event) => event.payload.id);
    expect(usage.every((row) => tracked.includes(row.id))).toBe(true);
  });

  it('invalidates a contradicted fact instead of deleting it, and keeps feelings about several things', async () => {
    const context = await alice.contexts.create({
      messages: [
        { role: 'user', content: 'I live in Paris. I like tea.', advanced_memory: true },
        { role: 'assistant', content: 'Paris is lovely!', advanced_memory: true },
      ],
    });
    await alice.contexts.createMessage(context.id, { role: 'user', content: "I moved to Berlin. I don't like tea. I like coffee.", advanced_memory: true });
    // Stating a known fact again adds nothing.
    await alice.contexts.createMessage(context.id, { role: 'user', content: 'I live in Berlin now.', advanced_memory: true });

    const result = await alice.contexts.queryAdvancedMemory(context.id, { new_user_message: 'Where do I live?' });
    // Valid edges first (most recently updated first), then the invalidated ones with when they stopped holding.
    expect(readable(result)).toEqual([
      'user lives_in Berlin',
      'user likes coffee',
      'user dislikes tea',
      'user likes tea (invalidated)',
      'user lives_in Paris (invalidated)',
    ]);
    const [berlin, , , tea, paris] = result.edges;
    expect(paris!.invalidated_at).toBeDefined();
    expect(tea!.invalidated_at).toBe(paris!.invalidated_at);
    expect(Date.parse(berlin!.updated_at)).toBeGreaterThan(Date.parse(berlin!.created_at));
    expect(result.nodes.find((node) => node.name === 'user')!.summary).toBe('user lives in Berlin. user dislikes tea. user likes coffee.');
    // Paris keeps only what still holds: the assistant's remark, no longer the user living there.
    expect(result.nodes.find((node) => node.name === 'Paris')!.summary).toBe('Paris is lovely.');
    expect(await memoryUsage(context.id)).toHaveLength(4);
  });

  it('ignores messages without advanced_memory', async () => {
    const context = await alice.contexts.create({ messages: [{ role: 'user', content: 'I live in Rome.' }] });
    await alice.contexts.createMessage(context.id, { role: 'user', content: 'I work at Globex.' });
    await alice.contexts.createMessage(context.id, { role: 'user', content: 'I like opera.', advanced_memory: false });
    expect(await alice.contexts.queryAdvancedMemory(context.id, { new_user_message: 'Where do I live and work, and what do I like?' })).toEqual({
      nodes: [],
      edges: [],
    });
    expect(await memoryUsage(context.id)).toEqual([]);
    expect((await alice.contexts.retrieve(context.id)).latest_messages).toHaveLength(3);
  });

  it('answers the subgraph relevant to the new message: mentioned entities and their neighbours', async () => {
    const context = await test.client.contexts.create();
    await test.client.contexts.createMessage(context.id, {
      role: 'user',
      content: 'Bob works at Initech. Bob likes chess. Carol lives in Oslo. Carol is a pilot. Initech is a software company.',
      advanced_memory: true,
    });
    const aboutBob = await test.client.contexts.queryAdvancedMemory(context.id, { new_user_message: 'What does bob enjoy?' });
    expect(aboutBob.nodes.map((node) => node.name)).toEqual(['Bob', 'chess', 'Initech']);
    expect(readable(aboutBob)).toEqual(['Bob likes chess', 'Bob works_at Initech']);

    const aboutOslo = await test.client.contexts.queryAdvancedMemory(context.id, { new_user_message: 'Who lives in Oslo?' });
    // Oslo by name and Carol one hop away; Carol's other facts are two hops from Oslo.
    expect(readable(aboutOslo)).toEqual(['Carol lives_in Oslo']);
    expect(aboutOslo.nodes.map((node) => node.name)).toEqual(['Oslo', 'Carol']);

    // A word of a name is enough ("pilots" ~ "pilot").
    expect(readable(await test.client.contexts.queryAdvancedMemory(context.id, { new_user_message: 'Any pilots around?' }))).toEqual(['Carol is pilot']);
    // A message naming no node is matched against the summaries: "lives" is in Carol's and in Oslo's.
    const aboutLiving = await test.client.contexts.queryAdvancedMemory(context.id, { new_user_message: 'Who lives somewhere cold?' });
    expect(readable(aboutLiving).sort()).toEqual(['Carol is pilot', 'Carol lives_in Oslo']);

    expect(await test.client.contexts.queryAdvancedMemory(context.id, { new_user_message: 'What is the weather today?' })).toEqual({ nodes: [], edges: [] });
  });

  it("enforces the human's memory_message_cnt limit before storing anything", async () => {
    await test.client.usage.updateLimits({ human: 'carol', limits: [{ type: 'memory_message_cnt', value: 2 }] });
    const carol = await humanClient(test, 'carol');
    const remember = (content: string) => ({ role: 'user' as const, content, advanced_memory: true });
    let error = await failureOf(carol.contexts.create({ messages: [remember('I live in Oslo.'), remember('I like tea.'), remember('I like jam.')] }));
    expect(UsageLimitExceededError.isInstance(error)).toBe(true);
    expect(error.message).toContain('memory_message_cnt');

    const context = await carol.contexts.create({ messages: [remember('I live in Oslo.'), remember('I like tea.')] });
    error = await failureOf(carol.contexts.createMessage(context.id, remember('I like jam.')));
    expect(UsageLimitExceededError.isInstance(error)).toBe(true);
    await carol.contexts.createMessage(context.id, { role: 'user', content: 'I like jam.' });
    expect((await carol.contexts.retrieve(context.id)).latest_messages.map((message) => message.content[0])).toEqual([
      { type: 'text', text: 'I live in Oslo.' },
      { type: 'text', text: 'I like tea.' },
      { type: 'text', text: 'I like jam.' },
    ]);
    expect(readable(await carol.contexts.queryAdvancedMemory(context.id, { new_user_message: 'What do I like?' })).sort()).toEqual([
      'user likes tea',
      'user lives_in Oslo',
    ]);
    expect(await memoryUsage(context.id)).toHaveLength(2);
  });

  it('takes at most 100 facts from one message and answers at most 50 nodes', async () => {
    const context = await test.client.contexts.create();
    const content = Array.from({ length: 150 }, (_, index) => `I like thing${index}.`).join(' ');
    await test.client.contexts.createMessage(context.id, { role: 'user', content, advanced_memory: true });
    const stored = await test.server.services.store.db.selectFrom('memory_edges').select('id').where('context_id', '=', context.id).execute();
    expect(stored).toHaveLength(100);
    const result = await test.client.contexts.queryAdvancedMemory(context.id, { new_user_message: 'What do I like?' });
    expect(result.nodes).toHaveLength(50);
    // Only edges whose two ends are in the answer.
    expect(result.edges).toHaveLength(49);
    const ids = new Set(result.nodes.map((node) => node.id));
    expect(result.edges.every((edge) => ids.has(edge.source_node) && ids.has(edge.target_node))).toBe(true);
  });

  it('scopes the query like the other context routes and validates the message', async () => {
    const context = await alice.contexts.create({ messages: [{ role: 'user', content: 'I live in Paris.', advanced_memory: true }] });
    let error = await failureOf(bob.contexts.queryAdvancedMemory(context.id, { new_user_message: 'Where does Alice live?' }));
    expect(NotFoundError.isInstance(error)).toBe(true);
    error = await failureOf(alice.contexts.queryAdvancedMemory('context_missing', { new_user_message: 'Where do I live?' }));
    expect(NotFoundError.isInstance(error)).toBe(true);
    error = await failureOf(alice.contexts.queryAdvancedMemory(context.id, { new_user_message: '' }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('new_user_message');
    error = await failureOf(alice.contexts.queryAdvancedMemory(context.id, { new_user_message: '  \n ' }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('new_user_message');
    // The project's key sees every human's contexts.
    expect(readable(await test.client.contexts.queryAdvancedMemory(context.id, { new_user_message: 'Where do I live?' }))).toEqual(['user lives_in Paris']);
  });
});
