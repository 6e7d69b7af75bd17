/**
 * `@palaver/sdk-core`: the typed REST client, the contract types and the error family.
 *
 * @example
 * import { createClient } from '@palaver/sdk-core';
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', usageToken });
 */
export { createClient, PalaverClient } from './client/create-client.js';
export type { ClientOptions, RequestOptions } from './client/http-client.js';
export { PagePromise } from './client/page-promise.js';
export type { PageShape } from './client/page-promise.js';
export { PalaverError } from './errors/palaver-error.js';
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  ModerationError,
  NotFoundError,
  NotImplementedError,
  UpstreamError,
  PayloadTooLargeError,
  PermissionDeniedError,
  ProjectDisabledError,
  RateLimitError,
  UsageLimitExceededError,
  apiErrorFrom,
} from './errors/api-error.js';
export { AbortError, ConnectionError, TimeoutError } from './errors/transport-errors.js';
export type { ConnectionErrorReason } from './errors/transport-errors.js';
export type * from './contract/types.js';
export { streamChatCompletion } from './client/chat-stream.js';
export type { ChatStreamOptions } from './client/chat-stream.js';
