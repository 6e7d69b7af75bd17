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

  /**
   * The recording of a run started with `recording: true` (Palaver extension): a 16 kHz stereo WAV, the humans on the
   * left channel, the graph (and its workers) on the right. Ready once the run ended (404 until then).
   *
   * @example
   * const wav = await client.appRuns.recording(app_run.id); // a Blob, audio/wav
   */
  recording(runId: string, options?: RequestOptions): Promise<Blob> {
    return this.http.call<Routes['recording']>({ method: 'GET', path: '/v1/app/run/{run}/recording' }, { params: { run: runId } }, options);
  }

  /** Deletes an ended run and its recording (Palaver extension). @example await client.appRuns.delete(app_run.id) */
  delete(runId: string, options?: RequestOptions): Promise<void> {
    return this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/app/run/{run}' }, { params: { run: runId } }, options);
  }

  debug(body: RouteInput<Routes['debug']>['body'], options?: RequestOptions): Promise<RouteOutput<Routes['debug']>> {
    return this.http.call<Routes['debug']>({ method: 'POST', path: '/v1/app/debug' }, { body }, options);
  }
}
