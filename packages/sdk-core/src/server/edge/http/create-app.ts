import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { allRoutes, routes } from '../../../contract/routes.js';
import type { RouteDefinition } from '../../../contract/define-route.js';
import { ApiError } from '../../../errors/api-error.js';
import type { Services } from '../../domain/services.js';
import type { AppEnvironment } from './app-environment.js';
import { bindRoute, compareRoutes } from './bind-routes.js';
import type { Handler } from './handler.js';
import type { OpenEventStreams } from './event-stream.js';
import { handlers } from './handlers/index.js';
import { buildOpenApiDocument } from './openapi.js';
import { registerSiteRoutes } from './site-routes.js';
import { localServerUrl, registerReferenceRoutes } from './reference/reference-routes.js';
import { registerMediaRoutes } from '../media-routes.js';
import { registerSipRoutes } from '../sip-routes.js';
import { registerChatAudioRoute } from './chat-audio-route.js';
import { registerMetricsRoute } from './metrics-route.js';
import { observeRequests } from './observe-requests.js';
import { crossOrigin } from './cross-origin.js';
import { isConnectionLost } from '../../store/postgres-connections.js';

/**
 * The error body: the spec's `{type, message}`. OpenAI-compatible routes also carry OpenAI's `error` object so
 * the official `openai` client shows the message; 500s carry the spec's `{error: string}`.
 */
const OPENAI_PATHS = ['/v1/chat/', '/v1/audio/', '/v1/responses', '/v1/realtime/client_secrets', '/v1/realtime/calls'];

function errorBody(path: string, type: string, message: string, status: number): Record<string, unknown> {
  if (OPENAI_PATHS.some((prefix) => path.startsWith(prefix))) return { type, message, error: { message, type, param: null, code: type } };
  return status >= 500 && status !== 501 ? { type, message, error: message } : { type, message };
}

/**
 * The platform's HTTP application: every contract route plus `/openapi.json`, the reference (`/docs`), `/health` and
 * `/metrics`. Event streams written to Node's responses are tracked in `streams` (a shutdown ends them cleanly).
 */
export function createApp(services: Services, streams?: OpenEventStreams): Hono<AppEnvironment> {
  const app = new Hono<AppEnvironment>();

  const observe = observeRequests(services.metrics, services.logger);
  // Credentials travel in headers, never cookies, so any origin may call the API (browsers use usage tokens).
  const crossOrigins = crossOrigin({
    origins: services.config.corsOrigins,
    allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    // `x-openai-agents-sdk`: sent by @openai/agents-realtime's WebRTC transport, which reads the call id in `location`.
    allowHeaders: ['x-api-key', 'authorization', 'x-human-id', 'content-type', 'accept', 'x-openai-agents-sdk'],
    exposeHeaders: ['x-request-id', 'retry-after', 'location'],
    maxAgeSeconds: 600,
  });
  // One layer for both: each of Hono's middleware layers costs a promise chain per request (2.5 µs of a 40 µs GET).
  app.use((context, next) => observe(context, () => crossOrigins(context, next)));
  app.onError((error, context) => {
    const requestIdentifier = context.get('requestId');
    const path = new URL(context.req.url).pathname;
    // The unread rest of a refused body would be taken for the next request: the connection ends with the answer.
    if ((ApiError.isInstance(error) || error instanceof HTTPException) && error.status === 413) context.header('connection', 'close');
    if (ApiError.isInstance(error)) {
      return context.json(errorBody(path, error.type, error.message, error.status), error.status as 400);
    }
    if (error instanceof HTTPException) {
      const type = error.status === 413 ? 'payload_too_large' : 'invalid_input';
      return context.json(errorBody(path, type, error.message, error.status), error.status);
    }
    if (isConnectionLost(error)) {
      // The database ended the connection the request's query ran on (a restart, a failover, an administrator):
      // nothing the caller did wrong, and a retry runs on a new connection.
      services.logger.warn({ err: error, requestId: requestIdentifier }, 'database connection lost during a request');
      context.header('retry-after', '1');
      const lost = `The database connection was lost while answering; retry the request (request ${requestIdentifier})`;
      return context.json(errorBody(path, 'service_unavailable', lost, 503), 503);
    }
    services.logger.error({ err: error, requestId: requestIdentifier }, 'unhandled error');
    const message = `Internal server error (request ${requestIdentifier})`;
    return context.json(errorBody(path, 'internal_error', message, 500), 500);
  });

  app.notFound((context) => context.json({ type: 'not_found', message: `No route for ${context.req.method} ${new URL(context.req.url).pathname}` }, 404));

  app.get('/health', (context) => context.json({ status: 'ok' }));
  registerSiteRoutes(app);
  registerMetricsRoute(app, services);
  let openApiDocument: object | undefined;
  app.get('/openapi.json', (context) => {
    openApiDocument ??= buildOpenApiDocument(allRoutes, { serverUrl: services.config.publicUrl, sampleServerUrl: localServerUrl(services.config) });
    return context.json(openApiDocument);
  });
  registerReferenceRoutes(app, services);
  registerSipRoutes(app, services.sip);
  registerMediaRoutes(app, services.media);
  registerChatAudioRoute(app, services.chatAudio);

  // Each route with its handler, taken group by group; static segments are registered before parameters.
  const bindings = Object.entries(routes).flatMap(([groupName, group]) =>
    Object.entries(group as Record<string, RouteDefinition>).map(([name, route]) => ({
      route,
      handler: (handlers as unknown as Record<string, Record<string, Handler<RouteDefinition>>>)[groupName]![name]!,
    })),
  );
  bindings.sort((left, right) => compareRoutes(left.route, right.route));
  for (const { route, handler } of bindings) bindRoute(app, route, handler, services, streams);
  return app;
}
