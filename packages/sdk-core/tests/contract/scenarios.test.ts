import { beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from '../../src/index.js';
import { collectPages } from '../support/collect-pages.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { humanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';

describe.each(await storeKinds())('scenarios (%s)', (kind) => {
  const test = useTestServer(kind);
  let project: string;
  beforeAll(() => {
    project = test.server.project;
  });

  it('creates, retrieves, updates, lists and deletes a scenario', async () => {
    const created = await test.client.scenarios.create({ name: 'Support', project, prompt: 'Help with billing.' });
    expect(created).toMatchObject({ name: 'Support', project, prompt: 'Help with billing.', human: null });
    expect(created.id).toMatch(/^scenario_/);
    expect(Date.parse(created.created_at)).not.toBeNaN();

    expect(await test.client.scenarios.retrieve(created.id)).toEqual(created);
    const updated = await test.client.scenarios.update(created.id, { prompt: 'Help with refunds.', project });
    expect(updated).toMatchObject({ id: created.id, name: 'Support', prompt: 'Help with refunds.' });
    expect((await test.client.scenarios.list()).values.map((scenario) => scenario.id)).toContain(created.id);

    expect(await test.client.scenarios.delete(created.id)).toEqual({ message: expect.stringContaining(created.id) });
    expect(NotFoundError.isInstance(await failureOf(test.client.scenarios.retrieve(created.id)))).toBe(true);
  });

  it('answers 404 for unknown scenarios, including DELETE', async () => {
    for (const call of [
      () => test.client.scenarios.retrieve('scenario_missing'),
      () => test.client.scenarios.update('scenario_missing', { name: 'x' }),
      () => test.client.scenarios.delete('scenario_missing'),
    ]) {
      const error = await failureOf(call());
      expect(NotFoundError.isInstance(error)).toBe(true);
      expect((error as NotFoundError).status).toBe(404);
    }
  });

  it('rejects invalid input with 400 invalid_input naming the field', async () => {
    const missingPrompt = await failureOf(test.client.scenarios.create({ name: 'No prompt', project } as never));
    expect(BadRequestError.isInstance(missingPrompt)).toBe(true);
    expect((missingPrompt as BadRequestError).type).toBe('invalid_input');
    expect((missingPrompt as BadRequestError).message).toContain('prompt');

    const otherProject = await failureOf(test.client.scenarios.create({ name: 'Elsewhere', project: 'project_other', prompt: 'p' }));
    expect(BadRequestError.isInstance(otherProject)).toBe(true);
    expect((otherProject as BadRequestError).message).toMatch(/^project: must be the caller's project/);

    const created = await test.client.scenarios.create({ name: 'Valid', project, prompt: 'p' });
    const badUpdate = await failureOf(test.client.scenarios.update(created.id, { project: 'project_other' }));
    expect((badUpdate as BadRequestError).message).toContain('project');
    const emptyName = await failureOf(test.client.scenarios.update(created.id, { name: '' }));
    expect((emptyName as BadRequestError).message).toContain('name');
    expect((await test.client.scenarios.retrieve(created.id)).name).toBe('Valid');
  });

  it('keeps both fields when PUT {name} and PUT {prompt} race (20 pairs)', async () => {
    const scenarios = await Promise.all(Array.from({ length: 20 }, (_, index) => test.client.scenarios.create({ name: `n0-${index}`, project, prompt: 'p0' })));
    await Promise.all(
      scenarios.flatMap((scenario) => [test.client.scenarios.update(scenario.id, { name: 'n1' }), test.client.scenarios.update(scenario.id, { prompt: 'p1' })]),
    );
    for (const scenario of scenarios) expect(await test.client.scenarios.retrieve(scenario.id)).toMatchObject({ name: 'n1', prompt: 'p1' });
  });

  it('answers 401 without credentials', async () => {
    const anonymous = test.clientWith({});
    expect(AuthenticationError.isInstance(await failureOf(anonymous.scenarios.list()))).toBe(true);
    expect(AuthenticationError.isInstance(await failureOf(anonymous.scenarios.create({ name: 'n', project, prompt: 'p' })))).toBe(true);
  });

  it('ignores x-human-id on create (the operation has no such parameter)', async () => {
    const scoped = test.clientWith({ apiKey: test.server.apiKey, humanId: 'henry' });
    const created = await scoped.scenarios.create({ name: 'Project-wide', project, prompt: 'p' });
    expect(created.human).toBeNull();
  });

  it("isolates humans: a usage token's scenarios are invisible to other humans; shared ones are read-only", async () => {
    const alice = await humanClient(test, 'alice');
    const bob = await humanClient(test, 'bob');
    const mine = await alice.scenarios.create({ name: 'Alice only', project, prompt: 'secret plans' });
    expect(mine.human).toBe('alice');

    expect(NotFoundError.isInstance(await failureOf(bob.scenarios.retrieve(mine.id)))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(bob.scenarios.update(mine.id, { name: 'taken' })))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(bob.scenarios.delete(mine.id)))).toBe(true);
    expect((await bob.scenarios.list().all()).map((scenario) => scenario.id)).not.toContain(mine.id);
    const asBobByKey = test.clientWith({ apiKey: test.server.apiKey, humanId: 'bob' });
    expect(NotFoundError.isInstance(await failureOf(asBobByKey.scenarios.retrieve(mine.id)))).toBe(true);

    expect(await test.client.scenarios.retrieve(mine.id)).toMatchObject({ human: 'alice' });
    expect((await alice.scenarios.update(mine.id, { name: 'Renamed' })).name).toBe('Renamed');

    const shared = await test.client.scenarios.create({ name: 'Shared', project, prompt: 'p' });
    expect(await alice.scenarios.retrieve(shared.id)).toMatchObject({ id: shared.id });
    expect(PermissionDeniedError.isInstance(await failureOf(alice.scenarios.update(shared.id, { name: 'mine now' })))).toBe(true);
    expect(PermissionDeniedError.isInstance(await failureOf(alice.scenarios.delete(shared.id)))).toBe(true);
    expect(await alice.scenarios.delete(mine.id)).toHaveProperty('message');
  });

  it('pages through 25 scenarios with page_size without duplicates or gaps', async () => {
    const created = new Set<string>();
    for (let index = 0; index < 25; index += 1) {
      created.add((await test.client.scenarios.create({ name: `Paged ${index}`, project, prompt: 'p' })).id);
    }
    const { total, pages } = await collectPages((query) => test.client.scenarios.list(query), { pageSize: 10, expectedIds: created });
    expect(pages).toBe(Math.ceil(total / 10));

    const badToken = await failureOf(test.client.scenarios.list({ page: 'not-a-token' }));
    expect((badToken as BadRequestError).message).toContain('page');
    expect((await failureOf(test.client.scenarios.list({ page_size: 0 }))) as BadRequestError).toMatchObject({ status: 400 });
  });
});
