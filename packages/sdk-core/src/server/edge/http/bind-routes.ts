import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import type { RouteDefinition } from '../../../contract/define-route.js';
import { BadRequestError, PayloadTooLargeError } from '../../../errors/api-error.js';
import type { Services } from '../../domain/services.js';
import { authenticate } from './authenticate.js';
import type { Handler } from './handler.js';
import { RequestHandlerContext } from './request-handler-context.js';
import type { AppEnvironment } from './app-environment.js';
import { assertStorableInput } from './input-hygiene.js';
import { invalidInput } from './validation-error.js';
import { readRequestText } from './node-request.js';
import { requestHeader, requestHeaders } from './node-headers.js';
import { EventStream, writeEventStream, type OpenEventStreams } from './event-stream.js';

/** The header by which @hono/node-server leaves a response that was written to Node directly alone. */
const ALREADY_SENT = 'x-hono-already-sent';

/**
 * What a handler that wrote its answer to Node directly gives Hono: one response for all such answers, made on
 * first use (when @hono/node-server's lightweight `Response` is the global one). Nothing writes to it: it is
 * only read for that header, and a new one per answer would build a web `Response` to be read (2% of a stream).
 */
let alreadySent: Response | undefined;

/** `/v1/persona/{persona_id}` -> `/v1/persona/:persona_id` */
export function toHonoPath(path: string): string {
  return path.replace(/\{([a-zA-Z0-9_]+)\}/g, ':$1');
}

/** Static segments before parameters, so `/v1/persona/list` is never taken for a persona id. */
export function compareRoutes(left: RouteDefinition, right: RouteDefinition): number {
  const a = left.path.split('/');
  const b = right.path.split('/');
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const aParam = a[index]!.startsWith('{');
    const bParam = b[index]!.startsWith('{');
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return b.length - a.length;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType } };
  while (current.def.innerType && ['optional', 'default', 'nullable', 'prefault'].includes(current.def.type)) {
    current = current.def.innerType;
  }
  return current;
}

function readQuery(url: URL, schema: z.ZodObject | undefined): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    const field = schema?.shape[key] as z.ZodType | undefined;
    const wantsArray = field !== undefined && (unwrap(field).def as { type: string }).type === 'array';
    query[key] = wantsArray ? values.flatMap((value) => value.split(',')).filter((value) => value !== '') : values.at(-1);
  }
  return query;
}

async function readBody(context: Context<AppEnvironment>, route: RouteDefinition): Promise<unknown> {
  const encoding = route.request?.bodyEncoding;
  const type = requestHeader(context, 'content-type') ?? '';
  // A WebRTC offer: `application/sdp` text is its `sdp` field; a form carries it with others.
  if (encoding === 'sdp' && !type.includes('multipart/form-data')) {
    if (!type.includes('application/sdp')) throw new BadRequestError('Invalid body: expected application/sdp or multipart/form-data');
    return { sdp: await readRequestText(context) };
  }
  if (encoding === 'multipart' || encoding === 'sdp') {
    if (!type.includes('multipart/form-data')) throw new BadRequestError('Invalid body: expected multipart/form-data');
    try {
      return await context.req.parseBody();
    } catch (error) {
      throw new BadRequestError('Invalid body: malformed multipart/form-data', { cause: error });
    }
  }
  const text = await readRequestText(context);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BadRequestError(`Invalid body: malformed JSON (${(error as Error).message})`, { cause: error });
  }
}

function parse<T extends z.ZodType>(schema: T, value: unknown, location: 'body' | 'query' | 'path'): z.output<T> {
  assertStorableInput(value, location);
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInput(location, result.error);
  return result.data;
}

/** Registers one route: auth, body limit, input validation, the handler, and response validation. */
export function bindRoute(
  app: Hono<AppEnvironment>,
  route: RouteDefinition,
  handler: Handler<RouteDefinition>,
  services: Services,
  streams?: OpenEventStreams,
): void {
  const maxSize = route.request?.bodyEncoding === 'multipart' ? services.config.maxUploadBytes : services.config.maxBodyBytes;
  // Routes without a body read none: the limit is only on the way of those that do.
  const path = toHonoPath(route.path);
  const answer = async (context: Context<AppEnvironment>) => {
    const principal = await authenticate(requestHeaders(context), route.auth, services, {
      humanHeader: route.humanHeader !== false,
    });
    context.set('principal', principal);
    const input: Record<string, unknown> = {};
    if (route.request?.params) input.params = parse(route.request.params, context.req.param(), 'path');
    if (route.request?.query) input.query = parse(route.request.query, readQuery(new URL(context.req.url), route.request.query), 'query');
    if (route.request?.body) input.body = parse(route.request.body, await readBody(context, route), 'body');

    const handlerContext = new RequestHandlerContext(principal, services, context);
    const output = await handler(input, handlerContext);

    switch (route.success.kind) {
      case 'json':
        return context.json(route.success.schema.parse(output) as object, 200);
      case 'empty':
        return context.body(null, 200);
      case 'binary':
        return output;
      case 'json-or-sse': {
        if (!(output instanceof EventStream)) return output;
        const outgoing = context.env?.outgoing;
        if (!outgoing) return output.toResponse();
        // The middlewares' headers (CORS, request id) are on Node's response already (withAnswerHeaders):
        // writing the head merges them in.
        void writeEventStream(outgoing, 200, output, streams);
        return (alreadySent ??= new Response(null, { headers: { [ALREADY_SENT]: 'true' } }));
      }
    }
  };
  // Every route but GET, bodiless ones too: an unread body would otherwise be drained by Node, however large.
  const tooLarge = () => {
    throw new PayloadTooLargeError(`Request body is larger than ${maxSize} bytes`);
  };
  const streamedLimit = bodyLimit({ maxSize, onError: tooLarge });
  // Hono's bodyLimit asks the web `Request` for its body first, which under @hono/node-server builds the full
  // Request (5% of a small request). A declared length is checked as bodyLimit would; only a body without a length
  // (chunked) goes through bodyLimit's counting reader.
  const limit: MiddlewareHandler<AppEnvironment> = async (context, next) => {
    const length = requestHeader(context, 'content-length');
    if (length !== undefined && requestHeader(context, 'transfer-encoding') === undefined) return Number.parseInt(length, 10) > maxSize ? tooLarge() : next();
    return streamedLimit(context, next);
  };
  // GET (and the HEAD Hono answers with it) carries no body: the limit would only pass it on, at the cost of a layer.
  if (route.method === 'GET') app.on(route.method, path, answer);
  else app.on(route.method, path, limit, answer);
}
