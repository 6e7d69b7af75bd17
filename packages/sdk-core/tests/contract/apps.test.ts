import { describe, expect, it } from 'vitest';
import { GraphDocument } from '../../src/contract/graph/graph-document.js';
import { graphOf } from '../../src/testing/graph-kit.js';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError, createClient, type PalaverClient } from '../../src/index.js';
import { versionDocumentId } from '../../src/server/domain/apps/app-documents.js';
import { HUMAN_DOCUMENT_QUOTA, MAX_ARRAY_ANSWER } from '../../src/server/store/document-store.js';
import { storeKinds } from '../support/databases.js';
import { apiFailureOf } from '../support/failure-of.js';
import { useHumanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';
import { seedDocuments } from './seed-documents.js';

const pipeline = graphOf(
  [
    { id: 'publish', type: 'Publish' },
    { id: 'stt', type: 'STT' },
  ],
  [{ from: 'publish.audio', to: 'stt.audio' }],
);

describe.each(await storeKinds())('apps (%s)', (kind) => {
  const test = useTestServer(kind);
  const asAlice = useHumanClient(test, 'alice');
  const asBob = useHumanClient(test, 'bob');

  it('creates an app at version 1 with an empty graph and reads it back', async () => {
    const app = await test.client.apps.create({ name: 'Support line' });
    expect(app).toMatchObject({ name: 'Support line', description: '', version: 1, graph: { nodes: [], portals: [] } });
    expect(app.id).toMatch(/^app_/);
    expect(Number.isNaN(Date.parse(app.created_at))).toBe(false);
    expect(await test.client.apps.retrieve(app.id)).toEqual(app);
    expect(await test.client.apps.retrieve(app.id, { version: 1 })).toEqual(app);
    expect((await test.client.apps.list()).map((item) => item.id)).toContain(app.id);
  });

  it('updates create new versions; old versions stay readable; a stale version is rejected', async () => {
    const app = await test.client.apps.create({ name: 'Draft' });
    const second = await test.client.apps.update(app.id, { version: 1, graph: pipeline, inputs: [{ name: 'topic' }] });
    expect(second).toMatchObject({ id: app.id, name: 'Draft', version: 2, graph: pipeline });
    const third = await test.client.apps.update(app.id, { version: 2, name: 'Final' });
    expect(third).toMatchObject({ name: 'Final', version: 3, graph: pipeline });
    expect(await test.client.apps.retrieve(app.id)).toEqual(third);
    expect(await test.client.apps.retrieve(app.id, { version: 1 })).toMatchObject({ name: 'Draft', graph: { nodes: [], portals: [] } });
    expect(await test.client.apps.retrieve(app.id, { version: 2 })).toEqual(second);

    for (const version of [1, 2, 4]) {
      const error = await apiFailureOf(test.client.apps.update(app.id, { version, name: 'Lost' }));
      expect(BadRequestError.isInstance(error)).toBe(true);
      expect(error.type).toBe('invalid_input');
      expect(error.message).toContain('stale version: newest is 3');
    }
    expect((await test.client.apps.retrieve(app.id)).version).toBe(3);
    expect((await test.client.apps.list()).find((item) => item.id === app.id)).toEqual(third);
  });

  it('of ten concurrent updates based on the same version exactly one wins', async () => {
    const app = await test.client.apps.create({ name: 'Contended' });
    const graphs = Array.from({ length: 10 }, (_unused, index) => graphOf([{ id: `writer-${index}`, type: 'ChatInput' }]));
    const outcomes = await Promise.allSettled(graphs.map((graph) => test.client.apps.update(app.id, { version: 1, graph })));
    const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const losers = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(9);
    for (const loser of losers) {
      expect(BadRequestError.isInstance(loser.reason), String(loser.reason)).toBe(true);
      expect((loser.reason as BadRequestError).message).toContain('stale version: newest is 2');
    }
    const winner = (winners[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof test.client.apps.update>>>).value;
    const versions = await test.client.apps.versions(app.id);
    expect(versions.all.total_count).toBe(2);
    expect(versions.newest).toEqual(winner);
    expect(await test.client.apps.retrieve(app.id)).toEqual(winner);
  });

  it('publishes one version at a time and lists versions newest first with pagination', async () => {
    const app = await test.client.apps.create({ name: 'Versioned' });
    for (let version = 1; version < 5; version += 1) {
      await test.client.apps.update(app.id, { version, graph: graphOf([{ id: `n${version}`, type: 'ChatInput' }]) });
    }
    const unpublished = await test.client.apps.versions(app.id);
    expect(unpublished.published).toBeUndefined();
    expect(unpublished.newest.version).toBe(5);
    expect(unpublished.all.items.map((item) => item.version)).toEqual([5, 4, 3, 2, 1]);
    expect(unpublished.all.next_page).toBeNull();

    expect(await test.client.apps.publish(app.id, { version: 2 })).toMatchObject({ id: app.id, version: 2 });
    expect((await test.client.apps.versions(app.id)).published?.version).toBe(2);
    await test.client.apps.publish(app.id, { version: 4 });
    const published = await test.client.apps.versions(app.id);
    expect(published.published).toEqual(await test.client.apps.retrieve(app.id, { version: 4 }));

    const seen: number[] = [];
    let page: string | undefined;
    for (let round = 0; round < 5; round += 1) {
      const result = await test.client.apps.versions(app.id, { page_size: 2, ...(page ? { page } : {}) });
      expect(result.all.total_count).toBe(5);
      seen.push(...result.all.items.map((item) => item.version));
      if (!result.all.next_page) break;
      page = result.all.next_page;
    }
    expect(seen).toEqual([5, 4, 3, 2, 1]);

    const missing = await apiFailureOf(test.client.apps.publish(app.id, { version: 9 }));
    expect(BadRequestError.isInstance(missing)).toBe(true);
    expect(missing.message).toContain('version');
    expect(NotFoundError.isInstance(await apiFailureOf(test.client.apps.publish('app_missing', { version: 1 })))).toBe(true);
    expect(NotFoundError.isInstance(await apiFailureOf(test.client.apps.versions('app_missing')))).toBe(true);
  });

  it('clones the newest graph of an app or an example; a missing source is a 404', async () => {
    const source = await test.client.apps.create({ name: 'Source' });
    await test.client.apps.update(source.id, { version: 1, graph: pipeline });
    const clone = await test.client.apps.create({ name: 'Clone', existing_app_id: source.id });
    expect(clone).toMatchObject({ name: 'Clone', version: 1, graph: pipeline });
    expect(clone.id).not.toBe(source.id);
    await test.client.apps.update(clone.id, { version: 1, graph: { nodes: [], portals: [] } });
    expect((await test.client.apps.retrieve(source.id)).graph).toEqual(pipeline);

    const [example] = await test.client.apps.examples();
    const fromExample = await test.client.apps.create({ name: 'Mine', existing_app_id: example!.id });
    expect(fromExample).toMatchObject({ name: 'Mine', version: 1, description: example!.description, graph: example!.graph });

    const error = await apiFailureOf(test.client.apps.create({ name: 'Orphan', existing_app_id: 'app_missing' }));
    expect(NotFoundError.isInstance(error)).toBe(true);
    expect(error.message).toContain('app_missing');
  });

  it('soft-deletes: reads, updates and lists stop seeing the app but its data is kept', async () => {
    const app = await test.client.apps.create({ name: 'Doomed' });
    await test.client.apps.update(app.id, { version: 1, graph: pipeline });
    await expect(test.client.apps.delete(app.id)).resolves.toBeUndefined();
    for (const call of [
      () => test.client.apps.retrieve(app.id),
      () => test.client.apps.versions(app.id),
      () => test.client.apps.update(app.id, { version: 2, name: 'Back' }),
      () => test.client.apps.publish(app.id, { version: 1 }),
      () => test.client.apps.delete(app.id),
      () => test.client.apps.create({ name: 'Clone', existing_app_id: app.id }),
    ]) {
      expect(NotFoundError.isInstance(await apiFailureOf(call()))).toBe(true);
    }
    expect((await test.client.apps.list()).map((item) => item.id)).not.toContain(app.id);
    const rows = await test.server.services.store.db
      .selectFrom('documents')
      .select(['kind', 'deleted_at'])
      .where((eb) => eb.or([eb('id', '=', app.id), eb('parent', '=', app.id)]))
      .execute();
    expect(rows.filter((row) => row.kind === 'app_version')).toHaveLength(2);
    expect(rows.find((row) => row.kind === 'app')?.deleted_at).not.toBeNull();
  });

  it('answers 404 for a missing app or version and 400 naming the field for bad input', async () => {
    const app = await test.client.apps.create({ name: 'Probe' });
    expect(NotFoundError.isInstance(await apiFailureOf(test.client.apps.retrieve('app_missing')))).toBe(true);
    expect(NotFoundError.isInstance(await apiFailureOf(test.client.apps.update('app_missing', { version: 1 })))).toBe(true);
    expect(NotFoundError.isInstance(await apiFailureOf(test.client.apps.delete('app_missing')))).toBe(true);
    const noVersion = await apiFailureOf(test.client.apps.retrieve(app.id, { version: 7 }));
    expect(NotFoundError.isInstance(noVersion)).toBe(true);
    expect(noVersion.message).toContain('version 7');

    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => test.client.apps.retrieve(app.id, { version: 0 }), 'version'],
      [() => test.client.apps.retrieve(app.id, { version: 'two' }), 'version'],
      [() => test.client.apps.create({} as never), 'name'],
      [() => test.client.apps.create({ name: '' }), 'name'],
      [() => test.client.apps.update(app.id, { name: 'No version' } as never), 'version'],
      [() => test.client.apps.update(app.id, { version: 1, graph: [] as never }), 'graph'],
      [() => test.client.apps.update(app.id, { version: 1, graph: { nodes: [{ id: 'a b', type: 'ChatInput' }] } }), 'graph.nodes[0].id'],
      [() => test.client.apps.update(app.id, { version: 1, graph: { nodes: [{ id: 'a' }] } as never }), 'graph.nodes[0].type'],
      [
        () =>
          test.client.apps.update(app.id, {
            version: 1,
            graph: {
              nodes: [
                { id: 'a', type: 'ChatInput' },
                { id: 'a', type: 'ButtonTrigger' },
              ],
            },
          }),
        "node 'a'",
      ],
      [
        () => test.client.apps.update(app.id, { version: 1, graph: { nodes: [{ id: 'a', type: 'Teleporter' }] } }),
        "node 'a' (Teleporter): unknown node type 'Teleporter'",
      ],
      [
        () =>
          test.client.apps.update(app.id, {
            version: 1,
            graph: { nodes: [{ id: 'a', type: 'ChatInput', pads: [{ id: 'output', type: 'StatelessSourcePad', next_pads: [{ node: 'ghost', pad: 'x' }] }] }] },
          }),
        "node 'a' (ChatInput) pad 'output': links to a missing node 'ghost'",
      ],
      [() => test.client.apps.publish(app.id, {} as never), 'version'],
      [() => test.client.apps.versions(app.id, { page: 'not-a-token' }), 'page'],
    ];
    for (const [call, field] of cases) {
      const error = await apiFailureOf(call());
      expect(BadRequestError.isInstance(error), `${field}: ${error.message}`).toBe(true);
      expect(error.type).toBe('invalid_input');
      expect(error.message).toContain(field);
    }
    expect((await test.client.apps.retrieve(app.id)).version).toBe(1);
  });

  it('accepts a graph object without nodes (free-form fields are kept)', async () => {
    const app = await test.client.apps.create({ name: 'Free form' });
    const graph = { layout: { zoom: 2 }, notes: 'anything goes' };
    expect((await test.client.apps.update(app.id, { version: 1, graph })).graph).toEqual(graph);
  });

  it('rejects calls without or with wrong credentials (401)', async () => {
    for (const credentials of [{}, { apiKey: 'pk_wrong_key_000000000000000000' }]) {
      const anonymous = test.clientWith(credentials);
      expect(AuthenticationError.isInstance(await apiFailureOf(anonymous.apps.list()))).toBe(true);
      expect(AuthenticationError.isInstance(await apiFailureOf(anonymous.apps.create({ name: 'x' })))).toBe(true);
      expect(AuthenticationError.isInstance(await apiFailureOf(anonymous.apps.examples()))).toBe(true);
    }
  });

  it("keeps a human's apps from other humans", async () => {
    const mine = await asAlice.apps.create({ name: 'Alice app' });
    expect((await asAlice.apps.list()).map((app) => app.id)).toContain(mine.id);
    expect((await asBob.apps.list()).map((app) => app.id)).not.toContain(mine.id);
    const bobByKey = test.clientWith({ apiKey: test.server.apiKey, humanId: 'bob' });
    for (const client of [asBob, bobByKey]) {
      for (const call of [
        () => client.apps.retrieve(mine.id),
        () => client.apps.update(mine.id, { version: 1, name: 'Stolen' }),
        () => client.apps.publish(mine.id, { version: 1 }),
        () => client.apps.versions(mine.id),
        () => client.apps.delete(mine.id),
        () => client.apps.create({ name: 'Copy', existing_app_id: mine.id }),
      ]) {
        expect(NotFoundError.isInstance(await apiFailureOf(call()))).toBe(true);
      }
    }
    expect(await asAlice.apps.update(mine.id, { version: 1, name: 'Still mine' })).toMatchObject({ version: 2, name: 'Still mine' });
    expect((await test.client.apps.list()).map((app) => app.id)).toContain(mine.id);
  });

  it('serves built-in examples that are real graphs, readable and read-only', async () => {
    const examples = await asAlice.apps.examples();
    expect(examples.map((example) => example.name)).toEqual(expect.arrayContaining(['Voice assistant', 'Echo', 'Typed chat, spoken answers']));
    for (const example of examples) {
      expect(GraphDocument.safeParse(example.graph).success, example.name).toBe(true);
      expect(example.version).toBe(1);
    }
    const voice = examples.find((example) => example.name === 'Voice assistant')!;
    expect(GraphDocument.parse(voice.graph).nodes.map((node) => node.type)).toEqual(
      expect.arrayContaining(['Publish', 'STT', 'OpenAICompatibleLLM', 'TTS', 'Output']),
    );
    expect(await asAlice.apps.retrieve(voice.id)).toEqual(voice);
    expect((await test.client.apps.list()).map((app) => app.id)).not.toContain(voice.id);
    expect(PermissionDeniedError.isInstance(await apiFailureOf(test.client.apps.update(voice.id, { version: 1, name: 'Mine' })))).toBe(true);
    expect(PermissionDeniedError.isInstance(await apiFailureOf(test.client.apps.publish(voice.id, { version: 1 })))).toBe(true);
    expect(PermissionDeniedError.isInstance(await apiFailureOf(test.client.apps.delete(voice.id)))).toBe(true);
    expect((await test.client.apps.versions(voice.id)).published?.version).toBe(1);
  });

  /** A fresh project with `count` apps (each with its version 1) owned by `human`, and a client for it. */
  async function projectWithApps(count: number, human: string | null): Promise<{ project: string; client: PalaverClient }> {
    const project = await test.server.services.projects.create('limits');
    const { key } = await test.server.services.apiKeys.create(project, 'test');
    const client = createClient({ baseUrl: 'http://palaver.test', fetch: test.server.fetch, apiKey: key, maxRetries: 0 });
    const appId = (index: number) => `app_seed_${project}_${String(index).padStart(6, '0')}`;
    const graph = JSON.stringify({ nodes: [], portals: [] });
    await seedDocuments(test.server.services.store, count, (index) => ({
      kind: 'app',
      id: appId(index),
      project,
      human,
      name: `seed ${index}`,
      data: JSON.stringify({ newest: 1, published: null }),
    }));
    await seedDocuments(test.server.services.store, count, (index) => ({
      kind: 'app_version',
      id: versionDocumentId(appId(index), 1),
      project,
      human,
      parent: appId(index),
      name: `seed ${index}`,
      data: `{"name":"seed ${index}","description":"","version":1,"graph":${graph},"inputs":null}`,
    }));
    return { project, client };
  }

  it(`answers at most ${MAX_ARRAY_ANSWER} apps, newest first`, async () => {
    const { client } = await projectWithApps(MAX_ARRAY_ANSWER + 150, null);
    const apps = await client.apps.list();
    expect(apps).toHaveLength(MAX_ARRAY_ANSWER);
    expect(apps[0]!.name).toBe(`seed ${MAX_ARRAY_ANSWER + 149}`);
    expect(apps.at(-1)!.name).toBe('seed 150');
    for (let index = 1; index < apps.length; index += 1) expect(apps[index - 1]!.created_at >= apps[index]!.created_at).toBe(true);
  });

  it(`limits a usage token's human to ${HUMAN_DOCUMENT_QUOTA} apps (400 limit reached), also when cloning or applying a template`, async () => {
    const { client } = await projectWithApps(HUMAN_DOCUMENT_QUOTA - 1, 'heavy');
    const heavy = test.clientWith({ usageToken: (await client.usage.createToken({ human: 'heavy' })).token });
    const last = await heavy.apps.create({ name: 'last' });
    for (const call of [
      () => heavy.apps.create({ name: 'one more' }),
      () => heavy.apps.create({ name: 'clone', existing_app_id: last.id }),
      async () => heavy.appTemplates.apply((await heavy.appTemplates.list())[0]!.id, { name: 'from template' }),
    ]) {
      const error = await apiFailureOf(call());
      expect(BadRequestError.isInstance(error)).toBe(true);
      expect(error.message).toContain('limit reached');
    }
    // The project's API key (even for that human) has no quota; deleting makes room again.
    expect((await client.apps.create({ name: 'by key' })).name).toBe('by key');
    await heavy.apps.delete(last.id);
    expect((await heavy.apps.create({ name: 'again' })).name).toBe('again');
  });

  it('routes /v1/app/list, /v1/app/examples and /v1/app/create to their operations, not to an app id', async () => {
    const app = await test.client.apps.create({ name: 'Router probe' });
    for (const path of ['/v1/app/list', '/v1/app/examples']) {
      const response = await test.server.fetch(new Request(`http://palaver.test${path}`, { headers: { 'x-api-key': test.server.apiKey } }));
      expect(response.status, path).toBe(200);
      const body = (await response.json()) as unknown[];
      expect(Array.isArray(body), path).toBe(true);
    }
    const listed = await test.client.apps.list();
    expect(listed.map((item) => item.id)).toContain(app.id);
    expect((await test.client.apps.examples()).every((item) => item.id !== app.id)).toBe(true);
    const direct = await test.server.fetch(new Request(`http://palaver.test/v1/app/${app.id}`, { headers: { 'x-api-key': test.server.apiKey } }));
    expect(((await direct.json()) as { id: string }).id).toBe(app.id);
  });
});
