import ky, { HTTPError, TimeoutError as KyTimeoutError, type KyInstance } from 'ky';
import type { HttpMethod, RouteDefinition, RouteInput, RouteOutput } from '../contract/define-route.js';
import { ApiError, apiErrorFrom } from '../errors/api-error.js';
import { AbortError, ConnectionError, TimeoutError } from '../errors/transport-errors.js';
import { PagePromise, type PageShape } from './page-promise.js';

export interface ClientOptions {
  /** Base URL of the platform, e.g. `http://127.0.0.1:8080`. */
  baseUrl?: string;
  /** Server-side API key (`x-api-key`). Never ship it to a browser. */
  apiKey?: string;
  /** A usage token minted for one human; safe for browsers. */
  usageToken?: string;
  /** Scopes API-key calls to a human (`x-human-id`). */
  humanId?: string;
  /** Custom fetch, e.g. `server.fetch` for in-process use. */
  fetch?: (input: Request) => Promise<Response>;
  /** Per-request timeout in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** Retries for idempotent requests on network errors, 408, 429 and 5xx (default 2). */
  maxRetries?: number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** The route's method and path, checked at compile time against the contract route `R`. */
export type RouteAddress<R extends RouteDefinition> = { method: R['method']; path: R['path'] };

function interpolate(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/\{([a-zA-Z0-9_]+)\}/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === '') throw new TypeError(`Missing path parameter '${name}'`);
    return encodeURIComponent(value);
  });
}

function searchParams(query: Record<string, unknown> | undefined): URLSearchParams | undefined {
  if (!query) return undefined;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  return params;
}

/** Low-level transport shared by the resource classes. */
export class HttpClient {
  private readonly ky: KyInstance;

  constructor(readonly options: ClientOptions) {
    const headers: Record<string, string> = {};
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    if (options.usageToken) headers.authorization = `Bearer ${options.usageToken}`;
    if (options.humanId) headers['x-human-id'] = options.humanId;
    const customFetch = options.fetch;
    this.ky = ky.create({
      prefixUrl: this.baseUrl,
      headers,
      timeout: options.timeoutMs ?? 60_000,
      retry: { limit: options.maxRetries ?? 2, methods: ['get', 'put', 'delete', 'head', 'options'] },
      throwHttpErrors: true,
      ...(customFetch ? { fetch: (input: RequestInfo | URL, init?: RequestInit) => customFetch(new Request(input, init)) } : {}),
    });
  }

  /** Sends one request; answers with the raw Response or throws the error family. */
  async send(
    method: HttpMethod,
    path: string,
    input: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown },
    options: RequestOptions = {},
  ): Promise<Response> {
    const url = interpolate(path, input.params).replace(/^\//, '');
    const body = input.body;
    try {
      return await this.ky(url, {
        method,
        searchParams: searchParams(input.query),
        ...(body instanceof FormData || body instanceof Blob ? { body } : body !== undefined ? { json: body } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
      });
    } catch (error) {
      throw await toPalaverError(error, options.signal, this.baseUrl);
    }
  }

  /** Where the platform is (what a connection error names). */
  get baseUrl(): string {
    return (this.options.baseUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  }

  /** Calls a contract route and returns its parsed answer. */
  async call<R extends RouteDefinition>(route: RouteAddress<R>, input: RouteInput<R>, options?: RequestOptions): Promise<RouteOutput<R>> {
    const response = await this.send(route.method, route.path, input, options);
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json')) return (await response.json()) as RouteOutput<R>;
    if (type.startsWith('audio/') || type.includes('octet-stream')) return (await response.blob()) as RouteOutput<R>;
    await response.body?.cancel();
    return undefined as RouteOutput<R>;
  }

  /** Calls a list route; the result is awaitable (first page) and async-iterable (every item). */
  list<R extends RouteDefinition, Item = RouteOutput<R> extends PageShape<infer I> ? I : never>(
    route: RouteAddress<R>,
    input: RouteInput<R>,
    options?: RequestOptions,
  ): PagePromise<Item> {
    const fetchPage = (page: string | undefined) => {
      const query = { ...((input as { query?: Record<string, unknown> }).query ?? {}), ...(page ? { page } : {}) };
      return this.call<R>(route, { ...input, query }, options) as Promise<PageShape<Item>>;
    };
    return new PagePromise<Item>(fetchPage);
  }
}

async function toPalaverError(error: unknown, signal: AbortSignal | undefined, baseUrl: string): Promise<Error> {
  if (error instanceof HTTPError) {
    const response = error.response;
    const requestId = response.headers.get('x-request-id') ?? undefined;
    let type = 'unknown';
    let message = `HTTP ${response.status}`;
    try {
      const body = await response.json<{ type?: string; message?: string; error?: string }>();
      type = body.type ?? type;
      message = body.message ?? body.error ?? message;
    } catch {
      // not a JSON error body; keep the status text
    }
    return apiErrorFrom({ status: response.status, type, message, requestId, cause: error });
  }
  if (ApiError.isInstance(error)) return error;
  if (error instanceof KyTimeoutError) return new TimeoutError('The request timed out', { cause: error });
  if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
    return new AbortError('The request was aborted', { cause: error });
  }
  // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND...) is in its cause.
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
  return new ConnectionError('network', `Could not reach the platform at ${baseUrl} (${reason})`, { cause: error });
}
