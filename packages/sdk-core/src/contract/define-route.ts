import type { z } from 'zod';

/** Auth class of an operation: `K` = API key only, `K/B` = API key or bearer usage token. */
export type AuthClass = 'K' | 'K/B';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a successful (200) answer carries. */
export type SuccessBody =
  | { kind: 'json'; schema: z.ZodType }
  | { kind: 'empty' }
  | { kind: 'binary'; contentTypes: readonly string[] }
  /** JSON, or `text/event-stream` of `event` chunks when the request asks for a stream. */
  | { kind: 'json-or-sse'; schema: z.ZodType; event: z.ZodType };

export interface RouteDefinition {
  /** Stable operation id, `<group>.<action>`, used by the OpenAPI document and the client. */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/v1/persona/{persona_id}`. */
  path: string;
  auth: AuthClass;
  summary: string;
  tag: string;
  deprecated?: boolean;
  /** Whether the optional `x-human-id` header applies (default: true). */
  humanHeader?: boolean;
  request?: {
    params?: z.ZodObject;
    query?: z.ZodObject;
    body?: z.ZodType;
    /**
     * `multipart` bodies are parsed from form data before validation; `sdp` bodies are `application/sdp` text (read as
     * the `sdp` field) or form data (WebRTC offers, as OpenAI's `/v1/realtime/calls` takes them).
     */
    bodyEncoding?: 'json' | 'multipart' | 'sdp';
  };
  success: SuccessBody;
  /** Error statuses this operation documents besides 400/401/500. */
  errors?: readonly number[];
}

/** Declares one route; returns it unchanged with its literal types preserved. */
export function defineRoute<const T extends RouteDefinition>(route: T): T {
  return route;
}

type RequestPart<R extends RouteDefinition, K extends 'params' | 'query' | 'body'> = R['request'] extends { [P in K]: infer S extends z.ZodType }
  ? z.input<S>
  : never;

/** The input a caller provides for a route (path params, query, body), derived from the contract. */
export type RouteInput<R extends RouteDefinition> = {
  [K in 'params' | 'query' | 'body' as RequestPart<R, K> extends never ? never : K]: RequestPart<R, K>;
};

/** The parsed server-side input of a route. */
export type RouteParsedInput<R extends RouteDefinition> = {
  [K in 'params' | 'query' | 'body' as R['request'] extends { [P in K]: z.ZodType } ? K : never]: R['request'] extends { [P in K]: infer S extends z.ZodType }
    ? z.output<S>
    : never;
};

/** The successful answer of a route, derived from the contract. */
export type RouteOutput<R extends RouteDefinition> = R['success'] extends { kind: 'json'; schema: infer S extends z.ZodType }
  ? z.output<S>
  : R['success'] extends { kind: 'json-or-sse'; schema: infer S extends z.ZodType }
    ? z.output<S>
    : R['success'] extends { kind: 'binary' }
      ? Blob
      : void;

/** The value a server handler returns for a route (input form, so defaults may be omitted). */
export type RouteHandlerOutput<R extends RouteDefinition> = R['success'] extends { kind: 'json'; schema: infer S extends z.ZodType }
  ? z.input<S>
  : R['success'] extends { kind: 'empty' }
    ? void
    : Response;
