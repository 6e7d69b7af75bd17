import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitError, UsageLimitExceededError } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(await storeKinds())('usage metering and limits (%s)', (kind) => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer(kind, { config: { webhook: { dispatch: false } } });
  });
  afterAll(async () => test.close());

  it('records usage with a usage.tracked event in the outbox', async () => {
    const project = await test.server.services.projects.create('metering');
    const hookless = await test.server.services.usage.record({ project, human: 'alice' }, 'voice_synthesis_seconds', 2.5, { voice: 'v1' });
    expect(hookless).toMatchObject({ type: 'voice_synthesis_seconds', value: 2.5, project, human: 'alice', metadata: { voice: 'v1' } });
    const events = await test.server.services.store.db.selectFrom('webhook_events').selectAll().where('project', '=', project).execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.body)).toEqual({
      type: 'usage.tracked',
      payload: { ...hookless, human_id: 'alice', extra: { created_at: expect.any(String) } },
    });
    // Project-wide usage (no human) has no human fields and touches no per-human counter.
    const projectWide = await test.server.services.usage.record({ project }, 'token_cnt', 7);
    expect(projectWide.human).toBeUndefined();
  });

  it('records made together share transactions, each with its own record, event and counter share; a bad one fails alone', async () => {
    const { usage, store } = test.server.services;
    const project = await test.server.services.projects.create('group-commit');
    const humans = ['ann', 'bob', 'cyd'];
    const write = (index: number) =>
      usage.record({ project, human: humans[index % 3]! }, 'token_cnt', index + 1, index === 75 ? { unserialisable: 1n } : { index });
    // A first wave written together, then a second whose batch fails on one record and is retried record by record.
    const first = await Promise.allSettled(Array.from({ length: 60 }, (_, index) => write(index)));
    const second = await Promise.allSettled(Array.from({ length: 30 }, (_, index) => write(60 + index)));
    const outcomes = [...first, ...second];
    expect(first.every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(1);
    expect(outcomes[75]!.status).toBe('rejected');
    const written = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(new Set(written.map((record) => record.id)).size).toBe(89);
    expect(written[10]).toMatchObject({ project, human: 'bob', value: 11, metadata: { index: 10 } });

    const records = await store.db.selectFrom('usage_records').select(['id', 'human', 'value']).where('project', '=', project).execute();
    expect(records).toHaveLength(89);
    const events = await store.db.selectFrom('webhook_events').select('body').where('project', '=', project).execute();
    expect(events.map((event) => (JSON.parse(event.body) as { payload: { id: string } }).payload.id).sort()).toEqual(written.map((record) => record.id).sort());
    const counters = await store.db
      .selectFrom('usage_counters')
      .select(['human', 'used'])
      .where('project', '=', project)
      .where('type', '=', 'token_cnt')
      .execute();
    const expected = new Map(humans.map((human) => [human, 0]));
    for (const record of written) expected.set(record.human!, expected.get(record.human!)! + record.value);
    expect(new Map(counters.map((counter) => [counter.human, Number(counter.used)]))).toEqual(expected);
  });

  it('enforces per-human limits: 400 usage_limit_exceeded on consumers, 429 on GET /v1/usage/limits', async () => {
    const { usage } = test.server.services;
    const project = test.server.project;
    await test.client.usage.updateLimits({ human: 'limited', limits: [{ type: 'token_cnt', value: 100 }] });
    const asLimited = test.clientWith({ apiKey: test.server.apiKey, humanId: 'limited' });

    await usage.record({ project, human: 'limited' }, 'token_cnt', 60);
    await expect(usage.assertWithinLimit(project, 'limited', 'token_cnt', 40)).resolves.toBeUndefined();
    const tooMuch = await usage.assertWithinLimit(project, 'limited', 'token_cnt', 41).catch((error: unknown) => error);
    expect(UsageLimitExceededError.isInstance(tooMuch)).toBe(true);
    expect((tooMuch as UsageLimitExceededError).status).toBe(400);
    expect((tooMuch as UsageLimitExceededError).type).toBe('usage_limit_exceeded');
    expect(await asLimited.usage.limits()).toEqual([{ type: 'token_cnt', value: 100 }]);
    // Other types and other humans are unaffected.
    await expect(usage.assertWithinLimit(project, 'limited', 'conversational_seconds', 1e9)).resolves.toBeUndefined();
    await expect(usage.assertWithinLimit(project, 'someone-else', 'token_cnt', 1e9)).resolves.toBeUndefined();

    await usage.record({ project, human: 'limited' }, 'token_cnt', 40);
    expect(UsageLimitExceededError.isInstance(await usage.assertWithinLimit(project, 'limited', 'token_cnt').catch((error: unknown) => error))).toBe(true);
    const limitsError = await asLimited.usage.limits().catch((error: unknown) => error);
    expect(RateLimitError.isInstance(limitsError)).toBe(true);
    expect((limitsError as RateLimitError).status).toBe(429);
    expect((limitsError as RateLimitError).message).toContain('token_cnt');
    const { token } = await test.client.usage.createToken({ human: 'limited' });
    expect(
      RateLimitError.isInstance(
        await test
          .clientWith({ usageToken: token })
          .usage.limits()
          .catch((error: unknown) => error),
      ),
    ).toBe(true);

    // Raising the limit restores access.
    await test.client.usage.updateLimits({ human: 'limited', limits: [{ type: 'token_cnt', value: 500 }] });
    expect(await asLimited.usage.limits()).toEqual([{ type: 'token_cnt', value: 500 }]);
  });

  it('concurrent reservations never overlap the limit; commit records actual usage, release frees the hold', async () => {
    const { usage } = test.server.services;
    const project = test.server.project;
    await test.client.usage.updateLimits({ human: 'streamer', limits: [{ type: 'token_cnt', value: 100 }] });
    const attempts = await Promise.allSettled(Array.from({ length: 10 }, () => usage.reserve(project, 'streamer', 'token_cnt', 30, { allowPartial: false })));
    const held = attempts.flatMap((attempt) => (attempt.status === 'fulfilled' ? [attempt.value] : []));
    expect(held).toHaveLength(3);
    expect(attempts.filter((attempt) => attempt.status === 'rejected').every((attempt) => UsageLimitExceededError.isInstance(attempt.reason))).toBe(true);
    // A partial grant takes what remains (10), after which nothing is left.
    const partial = await usage.reserve(project, 'streamer', 'token_cnt', 30);
    expect(partial.granted).toBe(10);
    expect(UsageLimitExceededError.isInstance(await usage.reserve(project, 'streamer', 'token_cnt', 1).catch((error: unknown) => error))).toBe(true);

    await held[0]!.commit(25, { model: 'm' });
    await held[1]!.release();
    await expect(held[0]!.commit(1)).rejects.toThrow('already');
    expect(await usage.consumption(test.server.services.store.db, project, 'streamer', 'token_cnt')).toEqual({ used: 25, reserved: 40 });
    const next = await usage.reserve(project, 'streamer', 'token_cnt', 50);
    expect(next.granted).toBe(35);
    for (const reservation of [held[2]!, partial, next]) await reservation.release();
    expect(await usage.consumption(test.server.services.store.db, project, 'streamer', 'token_cnt')).toEqual({ used: 25, reserved: 0 });
  });

  it('expired reservations stop holding budget', async () => {
    const { usage } = test.server.services;
    const project = test.server.project;
    await test.client.usage.updateLimits({ human: 'crashed', limits: [{ type: 'token_cnt', value: 10 }] });
    // A lease long enough that a loaded machine still checks within it, short enough to wait out.
    await usage.reserve(project, 'crashed', 'token_cnt', 10, { ttlMs: 1500 });
    expect(UsageLimitExceededError.isInstance(await usage.reserve(project, 'crashed', 'token_cnt', 1).catch((error: unknown) => error))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await usage.reserve(project, 'crashed', 'token_cnt', 10)).granted).toBe(10);
  });

  it('humans without limits and project-wide calls get unlimited no-op reservations that still record', async () => {
    const { usage } = test.server.services;
    const project = await test.server.services.projects.create('unlimited');
    const reservation = await usage.reserve(project, null, 'token_cnt', 4096);
    expect(reservation).toMatchObject({ id: null, granted: 4096 });
    const recorded = await reservation.commit(123);
    expect(recorded).toMatchObject({ value: 123, project });
    const events = await test.server.services.store.db.selectFrom('webhook_events').select('type').where('project', '=', project).execute();
    expect(events.map((event) => event.type)).toEqual(['usage.tracked']);
  });
});
