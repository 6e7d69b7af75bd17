import type { appRunRoutes } from '../../contract/app-runs.js';
import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof appRunRoutes;
export type CreateAppRunResponse = RouteOutput<Routes['create']>;

/** App runs: start an app graph and join it over the realtime connection it answers with. */
export class AppRuns extends Resource {
  /** @example const { app_run, connection_details } = await client.appRuns.create({ app: app.id }) */
  create(body: RouteInput<Routes['create']>['body'], options?: RequestOptions): Promise<CreateAppRunResponse> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/app/run' }, { body }, options);
  }

  /** Runs a graph that is not saved as an app. */
  createFromGraph(body: RouteInput<Routes['createFromGraph']>['body'], options?: RequestOptions): Promise<CreateAppRunResponse> {
    return this.http.call<Routes['createFromGraph']>({ method: 'POST', path: '/v1/app/run_from_graph' }, { body }, options);
  }

  /** @example await client.appRuns.pushPadValue(run.id, { node: 'llm', pad: 'prompt', value: { type: 'string', value: 'Hi' } }) */
  pushPadValue(runId: string, body: RouteInput<Routes['pushPadValue']>['body'], options?: RequestOptions): Promise<void> {
    return this.http.call<Routes['pushPadValue']>({ method: 'POST', path: '/v1/app/run/{run}/push_pad_value' }, { params: { run: runId }, body }, options);
  }

  debug(body: RouteInput<Routes['debug']>['body'], options?: RequestOptions): Promise<RouteOutput<Routes['debug']>> {
    return this.http.call<Routes['debug']>({ method: 'POST', path: '/v1/app/debug' }, { body }, options);
  }
}
