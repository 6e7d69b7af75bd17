import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { partnerRoutes } from '../../contract/partner.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof partnerRoutes;

/** Partner avatar sessions: realtime sessions rendered by a partner's avatar. */
export class Partner extends Resource {
  /**
   * @example
   * const { connection_details } = await client.partner.startAvatarSession({
   *   conversation_id: 'conv-1', avatar_agent_id: 'avatar-7',
   *   config: { general: {}, input: {}, generative: {}, output: {} },
   * });
   */
  startAvatarSession(body: RouteInput<Routes['startAvatarSession']>['body'], options?: RequestOptions): Promise<RouteOutput<Routes['startAvatarSession']>> {
    return this.http.call<Routes['startAvatarSession']>({ method: 'POST', path: '/v1/partner_a/session/avatar_a' }, { body }, options);
  }

  /** @example await client.partner.avatarAction(session.id, { action: 'wave' }) */
  avatarAction(sessionId: string, body: RouteInput<Routes['avatarAction']>['body'], options?: RequestOptions): Promise<void> {
    return this.http.call<Routes['avatarAction']>(
      { method: 'POST', path: '/v1/partner_a/session/avatar_a/{session}/action' },
      { params: { session: sessionId }, body },
      options,
    );
  }
}
