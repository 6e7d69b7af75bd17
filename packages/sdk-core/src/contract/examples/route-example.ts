import type { z } from 'zod';
import type { RouteDefinition } from '../define-route.js';

type RequestSchema<R extends RouteDefinition, K extends 'params' | 'query' | 'body'> = R['request'] extends {
  [P in K]: infer S extends z.ZodType;
}
  ? S
  : never;

/** A multipart body as an example shows it: file fields are the uploaded file's name. */
type MultipartExample<T> = { [K in keyof T]: T[K] extends Blob ? string : T[K] };

type BodyExample<R extends RouteDefinition> = R['request'] extends { bodyEncoding: 'multipart' }
  ? MultipartExample<z.input<RequestSchema<R, 'body'>>>
  : z.input<RequestSchema<R, 'body'>>;

type ParamsPart<R extends RouteDefinition> = [RequestSchema<R, 'params'>] extends [never]
  ? { params?: never }
  : { /** Path parameters. */ params: z.input<RequestSchema<R, 'params'>> };

type QueryPart<R extends RouteDefinition> = [RequestSchema<R, 'query'>] extends [never]
  ? { query?: never }
  : { /** Query parameters worth showing (optional: a list's first page needs none). */ query?: z.input<RequestSchema<R, 'query'>> };

type BodyPart<R extends RouteDefinition> = [RequestSchema<R, 'body'>] extends [never]
  ? { body?: never }
  : { /** The request body, as a caller writes it (the schema's input form). */ body: BodyExample<R> };

type ResponsePart<R extends RouteDefinition> = R['success'] extends { kind: 'json'; schema: infer S extends z.ZodType }
  ? { /** The 200 answer (the schema's output form, as the client receives it). */ response: z.output<S> }
  : R['success'] extends { kind: 'json-or-sse'; schema: infer S extends z.ZodType; event: infer E extends z.ZodType }
    ? {
        response: z.output<S>;
        /** The `data` of each server-sent event of the streamed answer, in order (`[DONE]` follows). */
        events: Array<z.output<E>>;
      }
    : { response?: never };

/**
 * One example call of a route, typed from its zod schemas so that TypeScript checks it against the contract:
 * the path parameters and body it declares are required, and so is the answer of a JSON operation.
 *
 * @example
 * const example: RouteExample<typeof personaRoutes.retrieve> = { params: { persona_id: 'persona_01...' }, response: persona };
 */
export type RouteExample<R extends RouteDefinition> = {
  /** What the example shows, when the operation's summary does not say it. */
  description?: string;
  /** The `x-human-id` header the call sends (an API-key call on behalf of one human). */
  human?: R['humanHeader'] extends false ? never : string;
} & ParamsPart<R> &
  QueryPart<R> &
  BodyPart<R> &
  ResponsePart<R>;

/** Examples of every route of a group: a route without one does not compile. */
export type GroupExamples<G extends Record<string, RouteDefinition>> = { [K in keyof G]: RouteExample<G[K]> };

/** An example with its types erased, as the OpenAPI generator reads it. */
export interface AnyRouteExample {
  description?: string;
  human?: string;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  response?: unknown;
  events?: unknown[];
}
