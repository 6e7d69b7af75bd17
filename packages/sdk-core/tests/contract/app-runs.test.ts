import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotImplementedError } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { apiFailureOf } from '../support/failure-of.js';
import { useTestServer } from '../support/suite-server.js';

/** App runs: the contract is complete (validation, auth) while the runtime answers 501 until it arrives. */
describe.each(await storeKinds())('app runs contract (%s)', (kind) => {
  const test = useTestServer(kind);

  it('valid requests reach the runtime, which answers 501 for now', async () => {
    const runs = test.client.appRuns;
    const override = { node: 'llm', pad: 'prompt', value: { type: 'string' as const, value: 'Hello' } };
    for (const call of [
      () => runs.create({ app: 'app_example_echo', version: 1, run_id: 'run-1', publisher_metadata: { user: 'u1' }, overrides: [override] }),
      () => runs.createFromGraph({ graph: { nodes: [{ id: 'llm', type: 'llm' }], edges: [] }, overrides: [override] }),
      () => runs.pushPadValue('run-1', { node: 'llm', pad: 'temperature', value: { type: 'float', value: 0.5 } }),
      () => runs.debug({ run_id: 'run-1' }),
    ]) {
      const error = await apiFailureOf(call());
      expect(NotImplementedError.isInstance(error), error.message).toBe(true);
      expect(error.status).toBe(501);
    }
  });

  it('invalid requests are 400 naming the field, and credentials are required', async () => {
    const runs = test.client.appRuns;
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => runs.create({} as never), 'app'],
      [() => runs.create({ app: 'a', version: 1.5 }), 'version'],
      [() => runs.createFromGraph({} as never), 'graph'],
      [() => runs.createFromGraph({ graph: { edges: [{ source: 'x', target: 'y' }] } }), 'graph.edges[0].source'],
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
