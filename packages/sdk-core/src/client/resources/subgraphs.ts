import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { subgraphRoutes } from '../../contract/subgraphs.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof subgraphRoutes;
export type SubGraph = RouteOutput<Routes['retrieve']>;

/** Sub graphs: reusable graph pieces; built-in ones (`project: null`) are read-only. */
export class SubGraphs extends Resource {
  /** @example const piece = await client.subgraphs.create({ name: 'Greeting', graph: { nodes: [], edges: [] } }) */
  create(body: RouteInput<Routes['create']>['body'], options?: RequestOptions): Promise<SubGraph> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/app/subgraph/create' }, { body }, options);
  }

  /** The project's sub graphs and the built-in ones. */
  list(options?: RequestOptions): Promise<SubGraph[]> {
    return this.http.call<Routes['list']>({ method: 'GET', path: '/v1/app/subgraph/list' }, {}, options);
  }

  /** The built-in sub graphs only. */
  listDefault(options?: RequestOptions): Promise<SubGraph[]> {
    return this.http.call<Routes['listDefault']>({ method: 'GET', path: '/v1/app/subgraph/list_default' }, {}, options);
  }

  retrieve(subgraphId: string, options?: RequestOptions): Promise<SubGraph> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/app/subgraph/{id}' }, { params: { id: subgraphId } }, options);
  }

  /** @example await client.subgraphs.update(piece.id, { graph }) */
  update(subgraphId: string, body: RouteInput<Routes['update']>['body'], options?: RequestOptions): Promise<SubGraph> {
    return this.http.call<Routes['update']>({ method: 'POST', path: '/v1/app/subgraph/{id}' }, { params: { id: subgraphId }, body }, options);
  }

  delete(subgraphId: string, options?: RequestOptions): Promise<void> {
    return this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/app/subgraph/{id}' }, { params: { id: subgraphId } }, options);
  }
}
