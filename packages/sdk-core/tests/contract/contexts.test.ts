import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { useHumanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';

describe.each(await storeKinds())('contexts (%s)', (kind) => {
  const test = useTestServer(kind);
  const alice = useHumanClient(test, 'alice');
  const bob = useHumanClient(test, 'bob');

  it('creates an empty context and reads it back', async () => {
    const context = await test.client.contexts.create();
    expect(context).toMatchObject({ project: test.server.project, latest_messages: [] });
    expect(context.id).toMatch(/^context_/);
    expect(Number.isNaN(Date.parse(context.created_at))).toBe(false);
    expect(await test.client.contexts.retrieve(context.id)).toEqual(context);
  });

  it('creates a context with a persona and first messages, keeping every field and showing custom as system', async () => {
    const persona = await test.client.personas.create({ name: 'Ada', description: 'A tutor', voice: 'flite-slt' });
    const context = await test.client.contexts.create({
      persona: persona.id,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'custom', content: 'Caller prefers French.' },
        { role: 'user', content: 'Hi', speaking_started_at: '2025-03-01T10:00:00Z', speaking_ended_at: '2025-03-01T10:00:01.500Z' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: { city: 'Paris' } } }],
        },
        { role: 'tool', content: '{"temp":21}', tool_call_id: 'call_1', tool_call_name: 'weather', advanced_memory: true },
      ],
    });
    const messages = context.latest_messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'system', 'user', 'assistant', 'tool']);
    expect(messages[1]!.content).toEqual([{ type: 'text', text: 'Caller prefers French.' }]);
    expect(messages[2]).toMatchObject({ speaking_started_at: '2025-03-01T10:00:00Z', speaking_ended_at: '2025-03-01T10:00:01.500Z' });
    expect(messages[3]!.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: { city: 'Paris' } } }]);
    expect(messages[4]).toMatchObject({ tool_call_id: 'call_1', tool_call_name: 'weather' });
    expect(messages[4]).not.toHaveProperty('advanced_memory');
    expect(await test.server.services.contexts.settings({ project: test.server.project, kind: 'key', human: null, credentialId: 'test' }, context.id)).toEqual({
      persona: persona.id,
      scenario: null,
    });
  });

  it('rejects an unknown persona or scenario, and a persona of another human, with 400 naming the field', async () => {
    let error = await failureOf(test.client.contexts.create({ persona: 'persona_missing' }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('persona');
    error = await failureOf(test.client.contexts.create({ scenario: 'scenario_missing' }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('scenario');
    const bobsPersona = await bob.personas.create({ name: 'Bob bot', description: 'x', voice: 'flite-awb' });
    error = await failureOf(alice.contexts.create({ persona: bobsPersona.id }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('persona');
  });

  it('validates messages: roles, content length, date-times; tool_call_id is optional (spec)', async () => {
    const context = await test.client.contexts.create();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ role: 'robot', content: 'x' }, 'role'],
      [{ role: 'user' }, 'content'],
      [{ role: 'user', content: 'x'.repeat(100_001) }, 'content'],
      [{ role: 'user', content: 'x', speaking_started_at: 'yesterday' }, 'speaking_started_at'],
      [{ role: 'assistant', content: 'x', tool_calls: [{ id: 'c', type: 'other', function: { name: 'f', arguments: {} } }] }, 'tool_calls'],
    ];
    for (const [body, field] of cases) {
      const error = await failureOf(test.client.contexts.createMessage(context.id, body as never));
      expect(BadRequestError.isInstance(error), field).toBe(true);
      expect(error.message, field).toContain(field);
    }
    expect((await test.client.contexts.retrieve(context.id)).latest_messages).toEqual([]);
    // The spec requires only role and content, for tool messages too.
    const withTool = await test.client.contexts.create({ messages: [{ role: 'tool', content: '{"ok":true}' }] });
    expect(withTool.latest_messages).toEqual([expect.objectContaining({ role: 'tool', content: [{ type: 'text', text: '{"ok":true}' }] })]);
    expect(withTool.latest_messages[0]).not.toHaveProperty('tool_call_id');
    const appended = await test.client.contexts.createMessage(context.id, { role: 'tool', content: 'done' });
    expect(appended).toMatchObject({ role: 'tool' });
  });

  it('keeps the 20 latest messages on the context and lists all of them oldest first, page by page', async () => {
    const context = await test.client.contexts.create({ messages: [{ role: 'user', content: 'm1' }] });
    for (let index = 2; index <= 25; index += 1) {
      const message = await test.client.contexts.createMessage(context.id, { role: index % 2 ? 'user' : 'assistant', content: `m${index}` });
      expect(message).toMatchObject({ role: index % 2 ? 'user' : 'assistant', content: [{ type: 'text', text: `m${index}` }] });
    }
    const texts = (messages: Array<{ content: Array<{ type: string; text?: string }> }>) => messages.map((message) => message.content[0]!.text);
    const current = await test.client.contexts.retrieve(context.id);
    expect(texts(current.latest_messages)).toEqual(Array.from({ length: 20 }, (_, index) => `m${index + 6}`));

    const first = await test.client.contexts.listMessages(context.id, { page_size: 10 });
    expect(first.total_count).toBe(25);
    expect(texts(first.values)).toEqual(Array.from({ length: 10 }, (_, index) => `m${index + 1}`));
    expect(first.next_page).toEqual(expect.any(String));
    const pages = [];
    for await (const page of test.client.contexts.listMessages(context.id, { page_size: 10 }).pages()) pages.push(page.values.length);
    expect(pages).toEqual([10, 10, 5]);
    const all = await test.client.contexts.listMessages(context.id, { page_size: 7 }).all();
    expect(texts(all)).toEqual(Array.from({ length: 25 }, (_, index) => `m${index + 1}`));

    const chosen = [all[20]!.id, all[3]!.id, all[11]!.id];
    const filtered = await test.client.contexts.listMessages(context.id, { messageIds: chosen });
    expect(filtered.total_count).toBe(3);
    expect(texts(filtered.values)).toEqual(['m4', 'm12', 'm21']);
    const error = await failureOf(test.client.contexts.listMessages(context.id, { page: 'not-a-token' }));
    expect(error.message).toContain('page');
  });

  it('keeps the order of messages created together (same timestamp), across pages', async () => {
    const messages = Array.from({ length: 30 }, (_, index) => ({ role: 'user' as const, content: `batch ${index}` }));
    const context = await test.client.contexts.create({ messages });
    const expected = messages.map((message) => message.content);
    expect(context.latest_messages.map((message) => message.content[0]!.type === 'text' && message.content[0]!.text)).toEqual(expected.slice(10));
    const listed = await test.client.contexts.listMessages(context.id, { page_size: 4 }).all();
    expect(listed.map((message) => message.content[0]!.type === 'text' && message.content[0]!.text)).toEqual(expected);
  });

  it('reads one message, and answers 404 for unknown contexts and messages of other contexts', async () => {
    const one = await test.client.contexts.create({ messages: [{ role: 'user', content: 'hello' }] });
    const other = await test.client.contexts.create();
    const message = one.latest_messages[0]!;
    expect(await test.client.contexts.retrieveMessage(one.id, message.id)).toEqual(message);
    for (const call of [
      () => test.client.contexts.retrieveMessage(other.id, message.id),
      () => test.client.contexts.retrieveMessage(one.id, 'msg_missing'),
      () => test.client.contexts.retrieve('context_missing'),
      () => test.client.contexts.listMessages('context_missing'),
      () => test.client.contexts.createMessage('context_missing', { role: 'user', content: 'x' }),
    ]) {
      expect(NotFoundError.isInstance(await failureOf(call()))).toBe(true);
    }
  });

  it('gets several contexts by id in the order asked, leaving out unknown ones; requires 1..100 ids', async () => {
    const first = await test.client.contexts.create();
    const second = await test.client.contexts.create({ messages: [{ role: 'user', content: 'x' }] });
    const listed = await test.client.contexts.list([second.id, 'context_missing', first.id, second.id]);
    expect(listed.values.map((context) => context.id)).toEqual([second.id, first.id]);
    expect(listed.total_count).toBe(2);
    expect(listed.values[0]!.latest_messages).toHaveLength(1);
    const raw = await test.server.fetch(
      new Request(`http://palaver.test/v1/llm/context/list?context_ids=${first.id},${second.id}`, { headers: { 'x-api-key': test.server.apiKey } }),
    );
    expect(((await raw.json()) as { values: Array<{ id: string }> }).values.map((context) => context.id)).toEqual([first.id, second.id]);
    for (const ids of [[], Array.from({ length: 101 }, (_, index) => `context_${index}`)]) {
      const error = await failureOf(test.client.contexts.list(ids));
      expect(BadRequestError.isInstance(error)).toBe(true);
      expect(error.message).toContain('context_ids');
    }
  });

  it("keeps humans apart: a human never reads or extends another human's context", async () => {
    const own = await alice.contexts.create({ messages: [{ role: 'user', content: 'secret' }] });
    expect(own.human).toBe('alice');
    const messageId = own.latest_messages[0]!.id;
    const asBobKey = test.clientWith({ apiKey: test.server.apiKey, humanId: 'bob' });
    for (const client of [bob, asBobKey]) {
      for (const call of [
        () => client.contexts.retrieve(own.id),
        () => client.contexts.listMessages(own.id),
        () => client.contexts.retrieveMessage(own.id, messageId),
        () => client.contexts.createMessage(own.id, { role: 'user', content: 'intrusion' }),
      ]) {
        expect(NotFoundError.isInstance(await failureOf(call()))).toBe(true);
      }
      expect((await client.contexts.list([own.id])).values).toEqual([]);
    }
    await alice.contexts.createMessage(own.id, { role: 'assistant', content: 'ok' });
    expect((await test.client.contexts.retrieve(own.id)).latest_messages).toHaveLength(2);

    const shared = await test.client.contexts.create({ messages: [{ role: 'system', content: 'shared' }] });
    expect((await alice.contexts.retrieve(shared.id)).latest_messages).toHaveLength(1);
    const error = await failureOf(alice.contexts.createMessage(shared.id, { role: 'user', content: 'x' }));
    expect(PermissionDeniedError.isInstance(error)).toBe(true);
  });

  it('answers an empty advanced memory graph for a new context (tests/contract/context-memory.test.ts covers the rest)', async () => {
    const context = await test.client.contexts.create();
    expect(await test.client.contexts.queryAdvancedMemory(context.id, { new_user_message: 'what did I say?' })).toEqual({ nodes: [], edges: [] });
    const invalid = await failureOf(test.client.contexts.queryAdvancedMemory(context.id, {} as never));
    expect(invalid.message).toContain('new_user_message');
  });

  it('rejects bad credentials with 401', async () => {
    const error = await failureOf(test.clientWith({ apiKey: 'pk_wrong_key_000000000000000000' }).contexts.create());
    expect(AuthenticationError.isInstance(error)).toBe(true);
  });
});
