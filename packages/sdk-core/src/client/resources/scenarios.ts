import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { scenarioRoutes } from '../../contract/scenarios.js';
import type { RequestOptions } from '../http-client.js';
import type { PagePromise } from '../page-promise.js';
import { Resource } from '../resource.js';

type Routes = typeof scenarioRoutes;
export type Scenario = RouteOutput<Routes['retrieve']>;

/** Scenarios: what the conversation is about (the agent's instructions). */
export class Scenarios extends Resource {
  /** @example await client.scenarios.create({ name: 'Support', project: projectId, prompt: 'Help with billing questions.' }) */
  create(body: RouteInput<Routes['create']>['body'], options?: RequestOptions): Promise<Scenario> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/scenario' }, { body }, options);
  }

  retrieve(scenarioId: string, options?: RequestOptions): Promise<Scenario> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/scenario/{scenario_id}' }, { params: { scenario_id: scenarioId } }, options);
  }

  update(scenarioId: string, body: RouteInput<Routes['update']>['body'], options?: RequestOptions): Promise<Scenario> {
    return this.http.call<Routes['update']>({ method: 'PUT', path: '/v1/scenario/{scenario_id}' }, { params: { scenario_id: scenarioId }, body }, options);
  }

  delete(scenarioId: string, options?: RequestOptions): Promise<RouteOutput<Routes['delete']>> {
    return this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/scenario/{scenario_id}' }, { params: { scenario_id: scenarioId } }, options);
  }

  list(query: RouteInput<Routes['list']>['query'] = {}, options?: RequestOptions): PagePromise<Scenario> {
    return this.http.list<Routes['list']>({ method: 'GET', path: '/v1/scenario/list' }, { query }, options);
  }
}
