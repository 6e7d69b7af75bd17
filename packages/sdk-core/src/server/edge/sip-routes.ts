import type { Hono } from 'hono';
import { LIVEKIT_WEBHOOK_PATH, LiveKitWebhookOutcome } from '../../contract/sip.js';
import type { SipService } from '../domain/sip/sip-service.js';

/**
 * LiveKit's SIP service at `/twirp/livekit.SIP/<method>` (Twirp, JSON), as `livekit-server-sdk`'s `SipClient` calls
 * it: answered from the platform's database with the embedded media endpoint, forwarded to the deployment's SIP
 * service with a LiveKit deployment (decision 0109), and the deployment's webhooks at `/livekit/webhook` (a SIP caller's
 * `palaver` answer). Registered before the media routes' `/twirp/*` catch-all.
 *
 * @example
 * registerSipRoutes(app, services.sip);
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function registerSipRoutes(app: Hono<any>, sip: SipService): void {
  app.post('/twirp/livekit.SIP/:method', async (context) => {
    const answer = await sip.call(context.req.param('method'), await context.req.text(), context.req.header('authorization'));
    return context.json(answer.body as object, answer.status as 200);
  });
  // The LiveKit deployment's webhooks (forwarded mode): a SIP caller joined a room a `palaver` answer serves.
  app.post(LIVEKIT_WEBHOOK_PATH, async (context) => {
    const outcome = await sip.liveKitWebhook(await context.req.text(), context.req.header('authorization'));
    return context.json(LiveKitWebhookOutcome.parse(outcome));
  });
}
