import { z } from 'zod';
import { DateTime, FreeObject, Id, PageQuery } from './common.js';
import { defineRoute } from './define-route.js';

/** Identifier of a node inside one graph (letters, digits, `_`, `-`, `.`, `:`). */
export const GraphNodeId = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'expected 1-128 characters of letters, digits, _ - . :');

const PadName = z.string().min(1).max(128);

export const AppGraphNode = z
  .looseObject({
    id: GraphNodeId,
    type: z.string().min(1).max(200).describe('Node kind, e.g. `stt`, `llm`, `tts`.'),
    params: FreeObject.optional().describe('Settings of this node.'),
  })
  .meta({ id: 'AppGraphNode', description: 'One processing step of an app graph.' });
export type AppGraphNode = z.infer<typeof AppGraphNode>;

export const AppGraphEdge = z
  .looseObject({
    source: GraphNodeId,
    source_pad: PadName.optional(),
    target: GraphNodeId,
    target_pad: PadName.optional(),
  })
  .meta({ id: 'AppGraphEdge', description: 'Connects an output pad of `source` to an input pad of `target`.' });
export type AppGraphEdge = z.infer<typeof AppGraphEdge>;

const GraphNodes = z.array(AppGraphNode).max(2000);
const GraphEdges = z.array(AppGraphEdge).max(10_000);

/** Node ids are unique and every edge names existing nodes; issues name the offending field. */
function checkReferences(graph: { nodes?: AppGraphNode[] | undefined; edges?: AppGraphEdge[] | undefined }, context: z.core.$RefinementCtx): void {
  const ids = new Set<string>();
  (graph.nodes ?? []).forEach((node, index) => {
    if (ids.has(node.id)) context.addIssue({ code: 'custom', message: `duplicate node id '${node.id}'`, path: ['nodes', index, 'id'] });
    ids.add(node.id);
  });
  (graph.edges ?? []).forEach((edge, index) => {
    for (const end of ['source', 'target'] as const) {
      if (!ids.has(edge[end])) {
        context.addIssue({ code: 'custom', message: `no node with id '${edge[end]}'`, path: ['edges', index, end] });
      }
    }
  });
}

/**
 * The graph shape of examples, templates and sub graphs: `{nodes: [{id, type, params?}], edges: [{source,
 * source_pad?, target, target_pad?}]}`.
 *
 * @example
 * const graph: AppGraph = { nodes: [{ id: 'stt', type: 'stt' }, { id: 'llm', type: 'llm' }], edges: [{ source: 'stt', target: 'llm' }] };
 */
export const AppGraph = z
  .looseObject({ nodes: GraphNodes, edges: GraphEdges })
  .superRefine(checkReferences)
  .meta({ id: 'AppGraph' });
export type AppGraph = z.infer<typeof AppGraph>;

/**
 * A graph as accepted on input: any object (the spec says free-form), but when it carries `nodes` or
 * `edges` they must be well formed and edges must reference existing nodes.
 */
export const GraphInput = z
  .looseObject({ nodes: GraphNodes.optional(), edges: GraphEdges.optional() })
  .superRefine(checkReferences)
  .meta({ id: 'GraphInput', description: 'Free-form graph object; `nodes`/`edges`, when present, follow AppGraph.' });

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
    inputs: z.union([z.array(z.unknown()), FreeObject]).optional().describe('Inputs of the app, stored with the new version.'),
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
