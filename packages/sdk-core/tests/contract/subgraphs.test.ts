import { describe, expect, it } from 'vitest';
import { GraphDocument } from '../../src/contract/graph/graph-document.js';
import { graphOf } from '../../src/testing/graph-kit.js';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError, createClient } from '../../src/index.js';
import { MAX_ARRAY_ANSWER } from '../../src/server/store/document-store.js';
import { storeKinds } from '../support/databases.js';
import { apiFailureOf } from '../support/failure-of.js';
import { useHumanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';
import { seedDocuments } from './seed-documents.js';

const greeting = graphOf(
  [
    { id: 'hello', type: 'ChatInput' },
    { id: 'tts', type: 'TTS' },
    { id: 'audio_out', type: 'ProxyStatelessSource', values: { pad_id: 'audio_out' } },
  ],
  [
    { from: 'hello.output', to: 'tts.text' },
    { from: 'tts.audio', to: 'audio_out.proxy' },
  ],
);

describe.each(await storeKinds())('sub graphs (%s)', (kind) => {
  const test = useTestServer(kind);
  const asErin = useHumanClient(test, 'erin');
  const asFrank = useHumanClient(test, 'frank');

  it('serves built-in defaults (project null) that are well-formed graphs', async () => {
    const defaults = await test.client.subgraphs.listDefault();
    expect(defaults.map((subgraph) => subgraph.name)).toContain('Voice pipeline');
    for (const subgraph of defaults) {
      expect(subgraph.project).toBeNull();
      expect(GraphDocument.safeParse(subgraph.graph).success, subgraph.name).toBe(true);
      expect(await asErin.subgraphs.retrieve(subgraph.id)).toEqual(subgraph);
    }
  });

  it('creates (empty by default), reads, updates and deletes a project sub graph', async () => {
    const empty = await test.client.subgraphs.create({ name: 'Empty' });
    expect(empty).toMatchObject({ name: 'Empty', graph: { nodes: [], portals: [] }, project: test.server.project });
    const created = await test.client.subgraphs.create({ name: 'Greeting', graph: greeting });
    expect(created.graph).toEqual(greeting);
    expect(created.id).toMatch(/^subgraph_/);
    expect(await test.client.subgraphs.retrieve(created.id)).toEqual(created);

    const listed = await test.client.subgraphs.list();
    const ids = listed.map((subgraph) => subgraph.id);
    expect(ids).toEqual(expect.arrayContaining([empty.id, created.id, ...(await test.client.subgraphs.listDefault()).map((item) => item.id)]));
    expect((await test.client.subgraphs.listDefault()).map((item) => item.id)).not.toContain(created.id);

    const updated = await test.client.subgraphs.update(created.id, { name: 'Greeting v2', graph: { nodes: [], portals: [] } });
    expect(updated).toMatchObject({ id: created.id, name: 'Greeting v2', graph: { nodes: [], portals: [] }, created_at: created.created_at });
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect((await test.client.subgraphs.update(created.id, { graph: greeting })).name).toBe('Greeting v2');

    await expect(test.client.subgraphs.delete(created.id)).resolves.toBeUndefined();
    expect(NotFoundError.isInstance(await apiFailureOf(test.client.subgraphs.retrieve(created.id)))).toBe(true);
    expect((await test.client.subgraphs.list()).map((item) => item.id)).not.toContain(created.id);
  });

  it('built-in sub graphs are read-only (403)', async () => {
    const [builtIn] = await test.client.subgraphs.listDefault();
    for (const call of [
      () => test.client.subgraphs.update(builtIn!.id, { graph: { nodes: [], portals: [] } }),
      () => test.client.subgraphs.delete(builtIn!.id),
      () => asErin.subgraphs.delete(builtIn!.id),
    ]) {
      const error = await apiFailureOf(call());
      expect(PermissionDeniedError.isInstance(error)).toBe(true);
      expect(error.status).toBe(403);
    }
    expect(await test.client.subgraphs.retrieve(builtIn!.id)).toEqual(builtIn);
  });

  it('answers 404 for a missing sub graph, 400 naming the field and 401 without credentials', async () => {
    for (const call of [
      () => test.client.subgraphs.retrieve('subgraph_missing'),
      () => test.client.subgraphs.update('subgraph_missing', { graph: {} }),
      () => test.client.subgraphs.delete('subgraph_missing'),
    ]) {
      expect(NotFoundError.isInstance(await apiFailureOf(call()))).toBe(true);
    }
    const own = await test.client.subgraphs.create({ name: 'Target' });
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => test.client.subgraphs.create({} as never), 'name'],
      [() => test.client.subgraphs.create({ name: 'x', graph: 'nope' as never }), 'graph'],
      [() => test.client.subgraphs.update(own.id, { name: 'No graph' } as never), 'graph'],
      [() => test.client.subgraphs.update(own.id, { graph: { nodes: [{ id: 'a', type: 'Teleporter' }] } }), "node 'a' (Teleporter): unknown node type"],
      [
        () => test.client.subgraphs.update(own.id, { graph: graphOf([{ id: 'inner', type: 'SubGraph', values: { __subgraph_id__: own.id } }]) }),
        'sub graphs form a cycle',
      ],
    ];
    for (const [call, field] of cases) {
      const error = await apiFailureOf(call());
      expect(BadRequestError.isInstance(error), error.message).toBe(true);
      expect(error.message).toContain(field);
    }
    expect(AuthenticationError.isInstance(await apiFailureOf(test.clientWith({}).subgraphs.list()))).toBe(true);
    expect(AuthenticationError.isInstance(await apiFailureOf(test.clientWith({}).subgraphs.create({ name: 'x' })))).toBe(true);
  });

  it('keeps the name of a PUT {name, graph} when a PUT {graph} races it (20 pairs)', async () => {
    const subgraphs = await Promise.all(Array.from({ length: 20 }, (_, index) => test.client.subgraphs.create({ name: `n0-${index}` })));
    await Promise.all(
      subgraphs.flatMap((subgraph) => [
        test.client.subgraphs.update(subgraph.id, { name: 'n1', graph: { nodes: [], portals: [] } }),
        test.client.subgraphs.update(subgraph.id, { graph: greeting }),
      ]),
    );
    for (const subgraph of subgraphs) expect((await test.client.subgraphs.retrieve(subgraph.id)).name).toBe('n1');
  });

  it(`lists at most ${MAX_ARRAY_ANSWER} sub graphs: the newest project ones, then every built-in`, async () => {
    const project = await test.server.services.projects.create('many sub graphs');
    const { key } = await test.server.services.apiKeys.create(project, 'test');
    const client = createClient({ baseUrl: 'http://palaver.test', fetch: test.server.fetch, apiKey: key, maxRetries: 0 });
    const count = MAX_ARRAY_ANSWER + 100;
    await seedDocuments(test.server.services.store, count, (index) => ({
      kind: 'subgraph',
      id: `subgraph_seed_${project}_${index}`,
      project,
      name: `seed ${index}`,
      data: JSON.stringify({ name: `seed ${index}`, graph: { nodes: [], portals: [] } }),
    }));
    const builtIns = await client.subgraphs.listDefault();
    const listed = await client.subgraphs.list();
    expect(listed).toHaveLength(MAX_ARRAY_ANSWER);
    expect(listed[0]!.name).toBe(`seed ${count - 1}`);
    expect(listed.slice(-builtIns.length).map((subgraph) => subgraph.id)).toEqual(builtIns.map((subgraph) => subgraph.id));
  });

  it("keeps a human's sub graphs from other humans", async () => {
    const mine = await asErin.subgraphs.create({ name: 'Erin piece', graph: greeting });
    expect((await asErin.subgraphs.list()).map((item) => item.id)).toContain(mine.id);
    expect((await asFrank.subgraphs.list()).map((item) => item.id)).not.toContain(mine.id);
    for (const call of [
      () => asFrank.subgraphs.retrieve(mine.id),
      () => asFrank.subgraphs.update(mine.id, { graph: {} }),
      () => asFrank.subgraphs.delete(mine.id),
    ]) {
      expect(NotFoundError.isInstance(await apiFailureOf(call()))).toBe(true);
    }
    expect(await asErin.subgraphs.retrieve(mine.id)).toEqual(mine);
  });
});
