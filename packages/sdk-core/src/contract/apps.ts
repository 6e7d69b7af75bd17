import { z } from 'zod';
import { DateTime, FreeObject, Id, PageQuery } from './common.js';
import { defineRoute } from './define-route.js';
import { GraphNode, GraphPortal } from './graph/graph-document.js';

/**
 * A graph as accepted on input: the graph format (`{nodes, portals}`, see `GraphDocument`), checked for
 * shape here; node types, pads, links and their types are checked by the server against the node
 * catalogue (400 `invalid_input` naming the node and pad).
 */
export const GraphInput = z
  .looseObject({
    nodes: z.array(GraphNode).max(2000).optional(),
    portals: z.array(GraphPortal).max(1000).optional(),
  })
  .meta({ id: 'GraphInput', description: 'An app graph: `{nodes, portals}`; each node has `id`, `type` and `pads` with their links.' });
export type GraphInput = z.infer<typeof GraphInput>;

export const App = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    version: z.number().int().describe('Version number of this snapshot (1, 2, ...).'),
    graph: FreeObject,
    created_at: DateTime.describe('When this version was created.'),
  })
  .meta({ id: 'App', description: 'An app (graph) at one version.' });
export type App = z.infer<typeof App>;

const AppName = z.string().min(1).max(200);
const VersionNumber = z.number().int().min(1).max(1_000_000_000);

export const CreateAppRequest = z
  .object({
    name: AppName,
    existing_app_id: Id.optional().describe("Clone the newest version's graph of this app (or example)."),
  })
  .meta({ id: 'CreateAppRequest' });
export type CreateAppRequest = z.infer<typeof CreateAppRequest>;

export const UpdateAppRequest = z
  .object({
    name: AppName.optional(),
    graph: GraphInput.optional(),
    inputs: z
      .union([z.array(z.unknown()), FreeObject])
      .optional()
      .describe('Inputs of the app, stored with the new version.'),
    version: VersionNumber.describe('The newest version the change is based on (optimistic concurrency).'),
  })
  .meta({ id: 'UpdateAppRequest' });
export type UpdateAppRequest = z.infer<typeof UpdateAppRequest>;

export const PublishAppRequest = z.object({ version: VersionNumber }).meta({ id: 'PublishAppRequest' });
export type PublishAppRequest = z.infer<typeof PublishAppRequest>;

export const AppList = z.array(App).meta({ id: 'AppList' });

export const AppVersionPage = z
  .object({
    items: z.array(App),
    total_count: z.number().int(),
    next_page: z.string().nullable().describe('Token for the next page (`page` query), null on the last page.'),
  })
  .meta({ id: 'AppVersionPage' });

export const AppVersions = z
  .object({
    newest: App,
    published: App.optional(),
    all: AppVersionPage.describe('Every version, newest first.'),
  })
  .meta({ id: 'AppVersions' });
export type AppVersions = z.infer<typeof AppVersions>;

export const AppVersionQuery = z.object({
  version: z.coerce.number().int().min(1).optional().describe('Version to read (latest when omitted).'),
});

const appParams = z.object({ app: Id });
const idParams = z.object({ id: Id });

export const appRoutes = {
  create: defineRoute({
    operationId: 'apps.create',
    method: 'POST',
    path: '/v1/app/create',
    auth: 'K/B',
    tag: 'Apps',
    summary: 'Create an app (empty, or cloned from an existing app)',
    request: { body: CreateAppRequest },
    success: { kind: 'json', schema: App },
    errors: [404],
  }),
  list: defineRoute({
    operationId: 'apps.list',
    method: 'GET',
    path: '/v1/app/list',
    auth: 'K/B',
    tag: 'Apps',
    summary: "The current project's apps (newest versions)",
    success: { kind: 'json', schema: AppList },
  }),
  examples: defineRoute({
    operationId: 'apps.examples',
    method: 'GET',
    path: '/v1/app/examples',
    auth: 'K/B',
    tag: 'Apps',
    summary: 'Built-in example apps',
    success: { kind: 'json', schema: AppList },
  }),
  retrieve: defineRoute({
    operationId: 'apps.retrieve',
    method: 'GET',
    path: '/v1/app/{app}',
    auth: 'K/B',
    tag: 'Apps',
    summary: 'Get an app at a version (latest when omitted)',
    request: { params: appParams, query: AppVersionQuery },
    success: { kind: 'json', schema: App },
    errors: [404],
  }),
  update: defineRoute({
    operationId: 'apps.update',
    method: 'POST',
    path: '/v1/app/{app}',
    auth: 'K/B',
    tag: 'Apps',
    summary: 'Save a new version of an app',
    request: { params: appParams, body: UpdateAppRequest },
    success: { kind: 'json', schema: App },
    errors: [403, 404],
  }),
  publish: defineRoute({
    operationId: 'apps.publish',
    method: 'POST',
    path: '/v1/app/{id}/publish',
    auth: 'K/B',
    tag: 'Apps',
    summary: 'Publish a version of an app',
    request: { params: idParams, body: PublishAppRequest },
    success: { kind: 'json', schema: App },
    errors: [403, 404],
  }),
  versions: defineRoute({
    operationId: 'apps.versions',
    method: 'GET',
    path: '/v1/app/{id}/versions',
    auth: 'K/B',
    tag: 'Apps',
    summary: 'The newest, the published and all versions of an app',
    request: { params: idParams, query: PageQuery },
    success: { kind: 'json', schema: AppVersions },
    errors: [404],
  }),
  delete: defineRoute({
    operationId: 'apps.delete',
    method: 'DELETE',
    path: '/v1/app/{id}/delete',
    auth: 'K/B',
    tag: 'Apps',
    summary: 'Delete an app (soft: its data is kept)',
    request: { params: idParams },
    success: { kind: 'empty' },
    errors: [403, 404],
  }),
};
