import { describe, expect, it } from 'vitest';
import type { PalaverClient } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { humanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';

/**
 * The auth matrix's "another human's token" column, across every resource a usage token can own: objects created
 * by human A are absent (404) for human B on every read, write and delete by id, and missing from B's lists.
 */
interface OwnedResource {
  name: string;
  create(client: PalaverClient): Promise<{ id: string }>;
  byId: Array<[string, (client: PalaverClient, id: string) => Promise<unknown>]>;
  list?: (client: PalaverClient) => Promise<Array<{ id: string }>>;
}

const resources: OwnedResource[] = [
  {
    name: 'persona',
    create: (client) => client.personas.create({ name: 'A', description: 'owned by A', voice: 'flite-slt' }),
    byId: [
      ['retrieve', (client, id) => client.personas.retrieve(id)],
      ['update', (client, id) => client.personas.update(id, { name: 'B was here' })],
      ['delete', (client, id) => client.personas.delete(id)],
    ],
    list: async (client) => (await client.personas.list()).values,
  },
  {
    name: 'scenario',
    create: async (client) => {
      const project = (await client.personas.create({ name: 'p', description: 'd', voice: 'flite-slt' })).project;
      return client.scenarios.create({ name: 'S', project, prompt: 'owned by A' });
    },
    byId: [
      ['retrieve', (client, id) => client.scenarios.retrieve(id)],
      ['update', (client, id) => client.scenarios.update(id, { prompt: 'B was here' })],
      ['delete', (client, id) => client.scenarios.delete(id)],
    ],
    list: async (client) => (await client.scenarios.list()).values,
  },
  {
    name: 'secret',
    create: (client) => client.secrets.create({ name: 'A_SECRET', value: 'a-value' }),
    byId: [
      ['update', (client, id) => client.secrets.update(id, { name: 'A_SECRET', value: 'b-value' })],
      ['delete', (client, id) => client.secrets.delete(id)],
    ],
    list: async (client) => (await client.secrets.list()).values,
  },
  {
    name: 'context',
    create: (client) => client.contexts.create({ messages: [{ role: 'user', content: 'private' }] }),
    byId: [
      ['retrieve', (client, id) => client.contexts.retrieve(id)],
      ['append message', (client, id) => client.contexts.createMessage(id, { role: 'user', content: 'B was here' })],
    ],
  },
  {
    name: 'app',
    create: (client) => client.apps.create({ name: 'A app' }),
    byId: [
      ['retrieve', (client, id) => client.apps.retrieve(id)],
      ['delete', (client, id) => client.apps.delete(id)],
    ],
    list: (client) => client.apps.list(),
  },
  {
    name: 'sub graph',
    create: (client) => client.subgraphs.create({ name: 'A graph', graph: { nodes: [], edges: [] } }),
    byId: [
      ['retrieve', (client, id) => client.subgraphs.retrieve(id)],
      ['update', (client, id) => client.subgraphs.update(id, { name: 'B', graph: { nodes: [], edges: [] } })],
      ['delete', (client, id) => client.subgraphs.delete(id)],
    ],
  },
];

describe.each(await storeKinds())("another human's token (%s)", (kind) => {
  const test = useTestServer(kind);

  it.each(resources.map((resource) => [resource.name, resource] as const))("%s: B gets 404 for A's object and never lists it", async (_name, resource) => {
    const alice = await humanClient(test, `alice-${resource.name}`);
    const bob = await humanClient(test, `bob-${resource.name}`);
    const owned = await resource.create(alice);
    for (const [operation, call] of resource.byId) {
      const error = await call(bob, owned.id).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect((error as { status?: number } | undefined)?.status, `${resource.name} ${operation}`).toBe(404);
    }
    if (resource.list) expect((await resource.list(bob)).map((item) => item.id)).not.toContain(owned.id);
    // A still owns it, unchanged by B's attempts.
    if (resource.list) expect((await resource.list(alice)).map((item) => item.id)).toContain(owned.id);
  });
});
