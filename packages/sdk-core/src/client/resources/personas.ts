import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { personaRoutes } from '../../contract/personas.js';
import type { RequestOptions } from '../http-client.js';
import type { PagePromise } from '../page-promise.js';
import { Resource } from '../resource.js';

type Routes = typeof personaRoutes;
export type Persona = RouteOutput<Routes['retrieve']>;

/** Personas: who the agent is (name, description, voice). */
export class Personas extends Resource {
  /** @example await client.personas.create({ name: 'Ada', description: 'A patient tutor', voice: 'flite-slt' }) */
  create(body: RouteInput<Routes['create']>['body'], options?: RequestOptions): Promise<Persona> {
    return this.http.call<Routes['create']>({ method: 'POST', path: '/v1/persona' }, { body }, options);
  }

  retrieve(personaId: string, options?: RequestOptions): Promise<Persona> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/persona/{persona_id}' }, { params: { persona_id: personaId } }, options);
  }

  update(personaId: string, body: RouteInput<Routes['update']>['body'], options?: RequestOptions): Promise<Persona> {
    return this.http.call<Routes['update']>({ method: 'PUT', path: '/v1/persona/{persona_id}' }, { params: { persona_id: personaId }, body }, options);
  }

  delete(personaId: string, options?: RequestOptions): Promise<RouteOutput<Routes['delete']>> {
    return this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/persona/{persona_id}' }, { params: { persona_id: personaId } }, options);
  }

  list(query: RouteInput<Routes['list']>['query'] = {}, options?: RequestOptions): PagePromise<Persona> {
    return this.http.list<Routes['list']>({ method: 'GET', path: '/v1/persona/list' }, { query }, options);
  }
}
