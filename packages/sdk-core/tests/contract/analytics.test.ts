import { beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, createClient } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { useHumanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';

describe.each(await storeKinds())('analytics (%s)', (kind) => {
  const test = useTestServer(kind);
  const alice = useHumanClient(test, 'alice');
  const bob = useHumanClient(test, 'bob');
  let range: { start_date: string; end_date: string };

  beforeAll(() => {
    const now = Date.now();
    range = { start_date: new Date(now - 3600_000).toISOString(), end_date: new Date(now + 3600_000).toISOString() };
  });

  it('returns the messages of the range oldest first, with context, persona, human and session', async () => {
    const persona = await alice.personas.create({ name: 'Guide', description: 'x', voice: 'espeak-de' });
    const context = await alice.contexts.create({
      persona: persona.id,
      messages: [
        { role: 'user', content: 'Guten Tag' },
        { role: 'custom', content: 'note' },
      ],
    });
    const principal = { project: test.server.project, kind: 'key' as const, human: null, credentialId: 'test' };
    const spoken = await test.server.services.contexts.appendMessage(
      principal,
      context.id,
      { role: 'assistant', content: 'Hallo!' },
      { realtimeSession: 'rts_1' },
    );
    const rows = await test.client.analytics.conversationMessages(range);
    const mine = rows.filter((row) => row.context_id === context.id);
    expect(mine.map((row) => [row.role, row.message])).toEqual([
      ['user', 'Guten Tag'],
      ['system', 'note'],
      ['assistant', 'Hallo!'],
    ]);
    expect(mine[0]).toMatchObject({ project_id: test.server.project, human_id: 'alice', persona_id: persona.id, message_id: context.latest_messages[0]!.id });
    expect(mine[0]).not.toHaveProperty('scenario_id');
    expect(mine[2]).toMatchObject({ message_id: spoken.id, realtime_session: 'rts_1' });
    const times = rows.map((row) => row.created_at);
    expect([...times].sort()).toEqual(times);
  });

  it('leaves out messages outside the range', async () => {
    await test.client.contexts.create({ messages: [{ role: 'user', content: 'now' }] });
    expect(await test.client.analytics.conversationMessages({ start_date: '2020-01-01T00:00:00Z', end_date: '2020-12-31T00:00:00+02:00' })).toEqual([]);
    const rows = await test.client.analytics.conversationMessages(range);
    expect(rows.some((row) => row.message === 'now')).toBe(true);
  });

  it("scopes rows to the human's own conversations (never project-wide ones) and to the project", async () => {
    await bob.contexts.create({ messages: [{ role: 'user', content: 'bob private' }] });
    await test.client.contexts.create({ messages: [{ role: 'system', content: 'shared note' }] });
    await alice.contexts.create({ messages: [{ role: 'user', content: 'alice private' }] });
    const asAlice = (await alice.analytics.conversationMessages(range)).map((row) => row.message);
    expect(asAlice).toContain('alice private');
    expect(asAlice).not.toContain('bob private');
    // Project-wide conversations may be anyone's: a human-scoped caller never sees them.
    expect(asAlice).not.toContain('shared note');
    expect((await alice.analytics.conversationMessages(range)).every((row) => row.human_id === 'alice')).toBe(true);
    const asBobKey = test.clientWith({ apiKey: test.server.apiKey, humanId: 'bob' });
    const asBob = (await asBobKey.analytics.conversationMessages(range)).map((row) => row.message);
    expect(asBob).toContain('bob private');
    expect(asBob).not.toContain('alice private');
    expect(asBob).not.toContain('shared note');
    expect((await test.client.analytics.conversationMessages(range)).map((row) => row.message)).toEqual(
      expect.arrayContaining(['alice private', 'bob private', 'shared note']),
    );

    const otherProject = await test.server.services.projects.create('other');
    const { key } = await test.server.services.apiKeys.create(otherProject, 'test');
    const other = createClient({ baseUrl: 'http://palaver.test', fetch: test.server.fetch, apiKey: key, maxRetries: 0 });
    expect(await other.analytics.conversationMessages(range)).toEqual([]);
  });

  it('validates the range: both dates required, end not before start, at most 366 days', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ end_date: range.end_date }, 'start_date'],
      [{ start_date: range.start_date }, 'end_date'],
      [{ start_date: 'last week', end_date: range.end_date }, 'start_date'],
      [{ start_date: range.end_date, end_date: range.start_date }, 'end_date'],
      [{ start_date: '2024-01-01T00:00:00Z', end_date: '2025-01-02T00:00:01Z' }, 'end_date'],
    ];
    for (const [query, field] of cases) {
      const error = await failureOf(test.client.analytics.conversationMessages(query as never));
      expect(BadRequestError.isInstance(error), JSON.stringify(query)).toBe(true);
      expect(error.message, JSON.stringify(query)).toContain(field);
    }
    await expect(test.client.analytics.conversationMessages({ start_date: '2024-01-01T00:00:00Z', end_date: '2025-01-01T00:00:00Z' })).resolves.toEqual([]);
  });

  it('rejects bad credentials with 401', async () => {
    const error = await failureOf(test.clientWith({ apiKey: 'pk_wrong_key_000000000000000000' }).analytics.conversationMessages(range));
    expect(AuthenticationError.isInstance(error)).toBe(true);
  });
});
