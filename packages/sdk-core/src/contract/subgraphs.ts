import { z } from 'zod';
import { GraphInput } from './apps.js';
import { DateTime, FreeObject, Id } from './common.js';
import { defineRoute } from './define-route.js';

export const SubGraph = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: DateTime,
    updated_at: DateTime,
    graph: FreeObject,
    project: z.string().nullable().optional().describe('Owning project; null for a built-in (global) sub graph.'),
  })
  .meta({ id: 'SubGraph', description: 'A reusable piece of an app graph.' });
export type SubGraph = z.infer<typeof SubGraph>;

const SubGraphName = z.string().min(1).max(200);

export const CreateSubGraphRequest = z
  .object({ name: SubGraphName, graph: GraphInput.optional().describe('Defaults to an empty graph.') })
  .meta({ id: 'CreateSubGraphRequest' });
export type CreateSubGraphRequest = z.infer<typeof CreateSubGraphRequest>;

export const UpdateSubGraphRequest = z.object({ name: SubGraphName.optional(), graph: GraphInput }).meta({ id: 'UpdateSubGraphRequest' });
export type UpdateSubGraphRequest = z.infer<typeof UpdateSubGraphRequest>;

export const SubGraphList = z.array(SubGraph).meta({ id: 'SubGraphList' });

const params = z.object({ id: Id });

export const subgraphRoutes = {
  create: defineRoute({
    operationId: 'subgraphs.create',
    method: 'POST',
    path: '/v1/app/subgraph/create',
    auth: 'K/B',
    tag: 'Sub graphs',
    summary: 'Create a sub graph',
    request: { body: CreateSubGraphRequest },
    success: { kind: 'json', schema: SubGraph },
  }),
  list: defineRoute({
    operationId: 'subgraphs.list',
    method: 'GET',
    path: '/v1/app/subgraph/list',
    auth: 'K/B',
    tag: 'Sub graphs',
    summary: "The project's and the built-in sub graphs",
    success: { kind: 'json', schema: SubGraphList },
  }),
  listDefault: defineRoute({
    operationId: 'subgraphs.listDefault',
    method: 'GET',
    path: '/v1/app/subgraph/list_default',
    auth: 'K/B',
    tag: 'Sub graphs',
    summary: 'The built-in (default) sub graphs',
    success: { kind: 'json', schema: SubGraphList },
  }),
  retrieve: defineRoute({
    operationId: 'subgraphs.retrieve',
    method: 'GET',
    path: '/v1/app/subgraph/{id}',
    auth: 'K/B',
    tag: 'Sub graphs',
    summary: 'Get a sub graph',
    request: { params },
    success: { kind: 'json', schema: SubGraph },
    errors: [404],
  }),
  update: defineRoute({
    operationId: 'subgraphs.update',
    method: 'POST',
    path: '/v1/app/subgraph/{id}',
    auth: 'K/B',
    tag: 'Sub graphs',
    summary: 'Update a sub graph',
    request: { params, body: UpdateSubGraphRequest },
    success: { kind: 'json', schema: SubGraph },
    errors: [403, 404],
  }),
  delete: defineRoute({
    operationId: 'subgraphs.delete',
    method: 'DELETE',
    path: '/v1/app/subgraph/{id}',
    auth: 'K/B',
    tag: 'Sub graphs',
    summary: 'Delete a sub graph',
    request: { params },
    success: { kind: 'empty' },
    errors: [403, 404],
  }),
};
