import type { Logger } from 'pino';
import type { RouteDefinition, RouteHandlerOutput, RouteParsedInput } from '../../../contract/define-route.js';
import type { Principal } from '../../kernel/principal.js';
import type { Services } from '../../domain/services.js';
import type { EventStream } from './event-stream.js';

/** What every handler receives besides its parsed input. */
export interface HandlerContext {
  principal: Principal;
  services: Services;
  requestId: string;
  /** The raw request (headers such as `Accept`). */
  request: Request;
  /** Aborts when the client goes away before the response ended. */
  readonly signal: AbortSignal;
  logger: Logger;
}

/**
 * What a handler answers: the contract's output; a route that may stream answers its events as an {@link EventStream}
 * (of any event type: each stream encodes its own).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type HandlerOutput<R extends RouteDefinition> = R['success'] extends { kind: 'json-or-sse' } ? Response | EventStream<any> : RouteHandlerOutput<R>;

/** A thin function that turns parsed input into a service call. */
export type Handler<R extends RouteDefinition> = (input: RouteParsedInput<R>, context: HandlerContext) => Promise<HandlerOutput<R>>;

/** One handler per route of a contract group; the compiler rejects a missing one. */
export type GroupHandlers<G extends Record<string, RouteDefinition>> = { [K in keyof G]: Handler<G[K]> };
