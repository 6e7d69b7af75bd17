import type { Hono } from 'hono';
import type { UpgradeHandler } from './upgrade-router.js';
import { agentDispatchCall, type MediaService, roomServiceCall, SIGNAL_PATHS, unservedTwirpRoute } from '../engines/media/index.js';

/**
 * Adds the embedded endpoint's HTTP routes: `GET /rtc/validate`, `GET /rtc/v1/validate` (what
 * clients ask after a failed upgrade), and the RoomService and AgentDispatchService Twirp subsets under `/twirp`;
 * every other `/twirp/...` call (Egress, Ingress) gets Twirp's `bad_route` 404 (the SIP service is `sip-routes.ts`,
 * registered before). Nothing is added with a LiveKit deployment.
 *
 * @example
 * registerMediaRoutes(app, services.media);
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function registerMediaRoutes(app: Hono<any>, media: MediaService): void {
  const endpoint = media.endpoint;
  if (!endpoint) return;
  for (const [path, version] of SIGNAL_PATHS) {
    app.get(`${path}/validate`, async (context) => {
      const refusal = await endpoint.validate(new URL(context.req.url), context.req.header('authorization'), version);
      return context.text(refusal.message, refusal.status as 200);
    });
  }
  app.post('/twirp/livekit.RoomService/:method', async (context) => {
    const body: unknown = await context.req.json().catch(() => ({}));
    const answer = await roomServiceCall(endpoint, context.req.param('method'), body, context.req.header('authorization'));
    return context.json(answer.body as object, answer.status as 200);
  });
  app.post('/twirp/livekit.AgentDispatchService/:method', async (context) => {
    const body: unknown = await context.req.json().catch(() => ({}));
    const answer = await agentDispatchCall(endpoint, context.req.param('method'), body, context.req.header('authorization'));
    return context.json(answer.body as object, answer.status as 200);
  });
  app.all('/twirp/*', (context) => {
    const answer = unservedTwirpRoute(context.req.method, new URL(context.req.url).pathname);
    return context.json(answer.body as object, answer.status as 404);
  });
}

/** Where LiveKit Agents workers connect (`<url>/agent`). */
export const AGENT_WORKER_PATH = '/agent';

/** Registers the signalling websocket paths and the agent workers' socket on the server's upgrade router. */
export function registerMediaUpgrades(onUpgrade: (path: string, handler: UpgradeHandler) => void, media: MediaService): void {
  const endpoint = media.endpoint;
  if (!endpoint) return;
  for (const [path, version] of SIGNAL_PATHS) {
    onUpgrade(path, (request, socket, head) => endpoint.handleUpgrade(request, socket, head, version));
  }
  onUpgrade(AGENT_WORKER_PATH, (request, socket, head) => endpoint.agentWorkers.handleUpgrade(request, socket, head));
}
