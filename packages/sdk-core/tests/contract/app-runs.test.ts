import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError } from '../../src/index.js';
import { graphOf } from '../../src/testing/graph-kit.js';
import { storeKinds } from '../support/databases.js';
import { apiFailureOf } from '../support/failure-of.js';
import { useTestServer } from '../support/suite-server.js';

/** App runs: the contract (validation, auth, 404s) on both stores; runs in rooms are tested in tests/app-runs. */
describe.each(await storeKinds())('app runs contract (%s)', (kind) => {
  const test = useTestServer(kind);

  it('runs an app (published, else newest) and a graph; unknown apps and runs are 404', async () => {
    const runs = test.client.appRuns;
    const started = await runs.create({ app: 'app_example_echo', publisher_metadata: { user: 'u1' } });
    expect(started).toMatchObject({
      app_run: { id: expect.any(String), app: 'app_example_echo', version: 1 },
      connection_details: { url: expect.any(String), token: expect.any(String) },
    });
    const fromGraph = await runs.createFromGraph({ graph: graphOf([{ id: 'chat', type: 'ChatInput' }]) });
    expect(fromGraph.app_run.app).toBeUndefined();
    await runs.pushPadValue(fromGraph.app_run.id, { node: 'chat', pad: 'output', value: { type: 'string', value: 'Hello' } });
    expect((await runs.debug({ run_id: started.app_run.id })).graph).toMatchObject({
      nodes: expect.arrayContaining([expect.objectContaining({ id: 'publish', type: 'Publish' })]),
    });
    for (const call of [
      () => runs.create({ app: 'app_missing' }),
      () => runs.create({ app: 'app_example_echo', version: 7 }),
      () => runs.pushPadValue('run_missing', { node: 'a', pad: 'b', value: { type: 'float', value: 0.5 } }),
      () => runs.debug({ run_id: 'run_missing' }),
    ]) {
      expect(NotFoundError.isInstance(await apiFailureOf(call()))).toBe(true);
    }
  });

  it('invalid requests are 400 naming the field, and credentials are required', async () => {
    const runs = test.client.appRuns;
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => runs.create({} as never), 'app'],
      [() => runs.create({ app: 'a', version: 1.5 }), 'version'],
      [() => runs.createFromGraph({} as never), 'graph'],
      [() => runs.createFromGraph({ graph: { nodes: [{ id: 'x', type: 'Teleporter' }] } }), "node 'x' (Teleporter): unknown node type"],
      [() => runs.create({ app: 'app_example_echo', overrides: [{ node: 'ghost', pad: 'p', value: { type: 'string', value: 'x' } }] }), 'overrides[0].node'],
      [
        () => runs.create({ app: 'app_example_echo', overrides: [{ node: 'publish', pad: 'audio', value: { type: 'string', value: 'x' } }] }),
        "node 'publish' pad 'audio' holds no value",
      ],
      [
        () => runs.create({ app: 'app_example_echo', overrides: [{ node: 'note', pad: 'width', value: { type: 'string', value: 'wide' } }] }),
        "node 'note' pad 'width' takes type integer",
      ],
      [() => runs.pushPadValue('run-1', { node: 'n', pad: 'p', value: { type: 'int', value: 1.5 } }), 'value.value'],
      [() => runs.pushPadValue('run-1', { node: 'n', pad: 'p', value: { type: 'colour' } } as never), 'value.type'],
      [() => runs.pushPadValue('run-1', { pad: 'p', value: { type: 'boolean', value: true } } as never), 'node'],
      [() => runs.debug({} as never), 'run_id'],
    ];
    for (const [call, field] of cases) {
      const error = await apiFailureOf(call());
      expect(BadRequestError.isInstance(error), error.message).toBe(true);
      expect(error.message).toContain(field);
    }
    expect(AuthenticationError.isInstance(await apiFailureOf(test.clientWith({}).appRuns.debug({ run_id: 'run-1' })))).toBe(true);
  });
});
