import type { ErrorType } from '../contract/common.js';
import { PalaverError } from './palaver-error.js';

export interface ApiErrorInit {
  status: number;
  type: ErrorType | (string & {});
  message: string;
  requestId?: string | undefined;
  cause?: unknown;
}

/** Options of the specific error classes: the status comes from the class. */
export type ApiErrorOptions = Partial<Omit<ApiErrorInit, 'message' | 'status'>>;

/**
 * An error answer from the platform: HTTP `status`, the spec's error `type` and a human-readable `message`.
 *
 * @example
 * if (NotFoundError.isInstance(error)) showEmptyState()
 */
export class ApiError extends PalaverError {
  static override readonly marker: symbol = Symbol.for('palaver.error.ApiError');
  readonly status: number;
  readonly type: string;
  readonly requestId: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message, { cause: init.cause });
    this.status = init.status;
    this.type = init.type;
    this.requestId = init.requestId;
  }

  /** The JSON body the server answers with. */
  toJSON(): { type: string; message: string } {
    return { type: this.type, message: this.message };
  }
}

/** 400: the request is invalid (`invalid_input`). */
export class BadRequestError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.BadRequestError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'invalid_input', ...options, status: options.status ?? 400, message });
  }
}

/** 400 `usage_limit_exceeded`: the human reached a usage limit. */
export class UsageLimitExceededError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.UsageLimitExceededError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'usage_limit_exceeded', ...options, status: options.status ?? 400, message });
  }
}

/** 400 `moderation_error`: moderation refused the text. */
export class ModerationError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.ModerationError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'moderation_error', ...options, status: options.status ?? 400, message });
  }
}

/** 400 `project_disabled`: the project is disabled. */
export class ProjectDisabledError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.ProjectDisabledError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'project_disabled', ...options, status: options.status ?? 400, message });
  }
}

/** 401: missing, invalid, expired or revoked credentials. */
export class AuthenticationError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.AuthenticationError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'unauthorized', ...options, status: options.status ?? 401, message });
  }
}

/** 403: these credentials may not perform the operation (e.g. a usage token on an API-key-only route). */
export class PermissionDeniedError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.PermissionDeniedError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'forbidden', ...options, status: options.status ?? 403, message });
  }
}

/** 404: the resource does not exist or is not visible to the caller. */
export class NotFoundError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.NotFoundError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'not_found', ...options, status: options.status ?? 404, message });
  }
}

/** 409: the resource is being changed concurrently; retry. */
export class ConflictError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.ConflictError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'conflict', ...options, status: options.status ?? 409, message });
  }
}

/** 413: the request body is too large. */
export class PayloadTooLargeError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.PayloadTooLargeError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'payload_too_large', ...options, status: options.status ?? 413, message });
  }
}

/** 429: a rate or usage limit (deprecated limit endpoints). */
export class RateLimitError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.RateLimitError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'usage_limit_exceeded', ...options, status: options.status ?? 429, message });
  }
}

/** 500: the server failed. */
export class InternalServerError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.InternalServerError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'internal_error', ...options, status: options.status ?? 500, message });
  }
}

/**
 * 502: a service the platform relies on for this request failed (an LLM's upstream unreachable or failing);
 * the message names it and the cause. Trying again later may succeed.
 */
export class UpstreamError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.UpstreamError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'upstream_error', ...options, status: options.status ?? 502, message });
  }
}

/** 501: the operation is declared by the API but not available on this server. */
export class NotImplementedError extends ApiError {
  static override readonly marker: symbol = Symbol.for('palaver.error.NotImplementedError');
  constructor(message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super({ type: 'not_implemented', ...options, status: options.status ?? 501, message });
  }
}

/** Builds the most specific error class for an error answer. */
export function apiErrorFrom(init: ApiErrorInit): ApiError {
  const options = { type: init.type, requestId: init.requestId, cause: init.cause };
  switch (init.status) {
    case 400:
      if (init.type === 'usage_limit_exceeded') return new UsageLimitExceededError(init.message, options);
      if (init.type === 'moderation_error') return new ModerationError(init.message, options);
      if (init.type === 'project_disabled') return new ProjectDisabledError(init.message, options);
      return new BadRequestError(init.message, options);
    case 401:
      return new AuthenticationError(init.message, options);
    case 403:
      return new PermissionDeniedError(init.message, options);
    case 404:
      return new NotFoundError(init.message, options);
    case 409:
      return new ConflictError(init.message, options);
    case 413:
      return new PayloadTooLargeError(init.message, options);
    case 429:
      return new RateLimitError(init.message, options);
    case 501:
      return new NotImplementedError(init.message, options);
    case 502:
      return new UpstreamError(init.message, options);
    default:
      return init.status >= 500 ? new InternalServerError(init.message, { ...options, status: init.status }) : new ApiError(init);
  }
}
