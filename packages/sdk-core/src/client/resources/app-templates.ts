import type { appTemplateRoutes } from '../../contract/app-templates.js';
import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof appTemplateRoutes;
type App = RouteOutput<Routes['retrieve']>;

/** App templates: built-in starting points that `apply` copies into a new app of your project. */
export class AppTemplates extends Resource {
  /** @example const templates = await client.appTemplates.list() */
  list(options?: RequestOptions): Promise<App[]> {
    return this.http.call<Routes['list']>({ method: 'GET', path: '/v1/app_template/list' }, {}, options);
  }

  retrieve(templateId: string, options?: RequestOptions): Promise<App> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/app_template/{template}' }, { params: { template: templateId } }, options);
  }

  /** @example const app = await client.appTemplates.apply('app_template_chat_bot', { name: 'My bot' }) */
  apply(templateId: string, body: RouteInput<Routes['apply']>['body'], options?: RequestOptions): Promise<App> {
    return this.http.call<Routes['apply']>({ method: 'POST', path: '/v1/app_template/{template}/apply' }, { params: { template: templateId }, body }, options);
  }
}
