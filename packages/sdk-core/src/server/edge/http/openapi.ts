import type { z } from 'zod';
import type { RouteDefinition } from '../../../contract/define-route.js';
import { BadRequest, InternalError } from '../../../contract/common.js';
import { SDKAgentState, SDKConnectionState, SDKSendChatMessageParams, SDKSessionTranscription } from '../../../contract/sdk.js';
import {
  HistoryMessage,
  Session,
  SessionMessage,
  SessionStartRequest,
  SessionStartResponse,
  SessionTimelineItem,
  UpdateSessionRequest,
} from '../../../contract/sessions-legacy.js';
import { examplesByOperationId, type AnyRouteExample } from '../../../contract/examples/index.js';
import { routes } from '../../../contract/routes.js';
import { SchemaCollector, type JsonSchema } from './openapi-components.js';
import { webhookOperations } from './openapi-webhooks.js';
import { openApiDescription, openApiExtensions } from './openapi-description.js';
import { AUTH_IN_WORDS, applyExample } from './reference/operation-examples.js';
import { codeSamples, type CodeSample } from './reference/code-samples.js';
import { securitySchemes } from './reference/security-schemes.js';

/** The generated OpenAPI 3.1 document (plain JSON). */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers?: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** Requests the platform sends to the customer (OpenAPI 3.1 `webhooks`). */
  webhooks: Record<string, Record<string, JsonSchema>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
  [extension: `x-${string}`]: unknown;
}

/** One operation of {@link OpenApiDocument}. */
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  /** The auth mark in words, then what the operation's example shows. */
  description?: string;
  tags: string[];
  deprecated?: boolean;
  security: Array<Record<string, string[]>>;
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  'x-auth-class': RouteDefinition['auth'];
  /** curl and TypeScript client calls of the operation's example. */
  'x-codeSamples'?: CodeSample[];
}

/** What {@link buildOpenApiDocument} may be given besides the routes. */
export interface OpenApiOptions {
  /** The server the document describes (`servers`); code samples call it too. */
  serverUrl?: string | undefined;
  /** Where code samples send requests when `serverUrl` is not given (default `http://127.0.0.1:8080`). */
  sampleServerUrl?: string | undefined;
  /** Example calls by operation id; by default the contract's (`contract/examples`). */
  examples?: ReadonlyMap<string, AnyRouteExample>;
}

/** Error answers every operation can give, as shared `components/responses`. */
const COMMON_ERRORS: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description: 'Invalid input (`invalid_input`, naming the field), or `usage_limit_exceeded`, `project_disabled`, `moderation_error`.',
  },
  401: { name: 'Unauthorized', description: 'Missing, invalid, expired or revoked credentials (`unauthorized`).' },
  403: { name: 'Forbidden', description: 'These credentials may not perform the operation (`forbidden`), e.g. a usage token on an API-key-only operation.' },
  404: { name: 'NotFound', description: 'The resource or token does not exist or is not visible to the caller (`not_found`).' },
  409: { name: 'Conflict', description: 'The request conflicts with the current state (`conflict`).' },
  413: { name: 'PayloadTooLarge', description: 'The request body is too large (`payload_too_large`).' },
  429: { name: 'TooManyRequests', description: 'A usage limit is exceeded (`usage_limit_exceeded`).' },
  500: { name: 'InternalError', description: 'Internal server error; the body carries `error` as well as `type` and `message`.' },
  501: { name: 'NotImplemented', description: 'The operation is not available on this server yet (`not_implemented`).' },
  502: {
    name: 'UpstreamError',
    description: "A service this request relies on failed, e.g. the LLM's upstream is unreachable (`upstream_error`); the message names it and the cause.",
  },
};

/** Schemas without an operation that clients still need: the older Session form and the realtime SDK's wire types. */
const DOCUMENTED_SCHEMAS: Array<{ schema: z.core.$ZodType; side: 'input' | 'output' }> = [
  { schema: Session, side: 'output' },
  { schema: SessionMessage, side: 'output' },
  { schema: SessionTimelineItem, side: 'output' },
  { schema: SessionStartResponse, side: 'output' },
  { schema: HistoryMessage, side: 'input' },
  { schema: SessionStartRequest, side: 'input' },
  { schema: UpdateSessionRequest, side: 'input' },
  { schema: SDKConnectionState, side: 'output' },
  { schema: SDKAgentState, side: 'output' },
  { schema: SDKSessionTranscription, side: 'output' },
  { schema: SDKSendChatMessageParams, side: 'input' },
];

function successResponse(route: RouteDefinition, collector: SchemaCollector): JsonSchema {
  const where = `${route.method} ${route.path} (response)`;
  const success = route.success;
  switch (success.kind) {
    case 'json':
      return { description: 'Success', content: { 'application/json': { schema: collector.add(success.schema, 'output', where) } } };
    case 'empty':
      return { description: 'Success (no body)' };
    case 'binary':
      return {
        description: 'Success: binary content',
        content: Object.fromEntries(success.contentTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
      };
    case 'json-or-sse':
      return {
        description: 'Success: JSON, or a server-sent event stream when the request asks for a stream',
        content: {
          'application/json': { schema: collector.add(success.schema, 'output', where) },
          'text/event-stream': {
            schema: { type: 'string', description: 'Server-sent events; the `data` of each event is one JSON chunk (`x-event-schema`).' },
            'x-event-schema': collector.add(success.event, 'output', `${where} event`),
          },
        },
      };
  }
}

function objectParameters(schema: z.ZodObject | undefined, location: 'path' | 'query', where: string, collector: SchemaCollector): JsonSchema[] {
  if (!schema) return [];
  const converted = collector.add(schema, 'input', where) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(converted.properties ?? {}).map(([name, propertySchema]) => {
    const { description, deprecated, ...rest } = propertySchema;
    return {
      name,
      in: location,
      required: location === 'path' || (converted.required ?? []).includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      ...(deprecated === true ? { deprecated: true } : {}),
      schema: rest,
      ...(rest.type === 'array' ? { style: 'form', explode: true } : {}),
    };
  });
}

function parametersOf(route: RouteDefinition, collector: SchemaCollector): JsonSchema[] {
  const where = `${route.method} ${route.path}`;
  const parameters = [
    ...objectParameters(route.request?.params, 'path', `${where} (path)`, collector),
    ...objectParameters(route.request?.query, 'query', `${where} (query)`, collector),
  ];
  // A path template must declare every parameter even when the contract has no params schema.
  for (const match of route.path.matchAll(/\{([a-zA-Z0-9_]+)\}/g)) {
    if (!parameters.some((parameter) => parameter.in === 'path' && parameter.name === match[1])) {
      parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  // The server reads the header on every route that does not opt out (e.g. credit ledger entries, which are K).
  if (route.humanHeader !== false) {
    parameters.push({
      name: 'x-human-id',
      in: 'header',
      required: false,
      description: "Ties an API-key request to a human (your own user id). With a usage token it must match the token's human.",
      schema: { type: 'string', minLength: 1, maxLength: 256 },
    });
  }
  return parameters;
}

function requestBodyOf(route: RouteDefinition, collector: SchemaCollector): JsonSchema | undefined {
  const body = route.request?.body;
  if (!body) return undefined;
  const schema = collector.add(body, 'input', `${route.method} ${route.path} (body)`);
  const required = !body.safeParse(undefined).success;
  if (route.request?.bodyEncoding === 'sdp') {
    return { required, content: { 'application/sdp': { schema: { type: 'string', description: 'The SDP offer.' } }, 'multipart/form-data': { schema } } };
  }
  if (route.request?.bodyEncoding !== 'multipart') return { required, content: { 'application/json': { schema } } };
  // Uploads: a `file` field the JSON Schema conversion could not describe is binary content.
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  if (properties.file && properties.file.type === undefined) properties.file = { type: 'string', format: 'binary', ...properties.file };
  return { required, content: { 'multipart/form-data': { schema } } };
}

function operationOf(
  route: RouteDefinition,
  collector: SchemaCollector,
  example: AnyRouteExample | undefined,
  serverUrl: string | undefined,
): OpenApiOperation {
  const parameters = parametersOf(route, collector);
  const requestBody = requestBodyOf(route, collector);
  // 413 on every operation: the body limit applies to whatever a client sends, declared body or not.
  const statuses = new Set<number>([400, 401, 403, 413, 500, 501, ...(route.errors ?? [])]);
  const responses: Record<string, JsonSchema> = { 200: successResponse(route, collector) };
  for (const status of [...statuses].sort((left, right) => left - right)) {
    const known = COMMON_ERRORS[status];
    responses[String(status)] = known
      ? { $ref: `#/components/responses/${known.name}` }
      : { description: `Error ${status}`, content: { 'application/json': { schema: { $ref: '#/components/schemas/BadRequest' } } } };
  }
  const operation: OpenApiOperation = {
    operationId: route.operationId,
    summary: route.summary,
    description: AUTH_IN_WORDS[route.auth],
    tags: [route.tag],
    ...(route.deprecated ? { deprecated: true } : {}),
    security: route.auth === 'K' ? [{ ApiKey: [] }] : [{ ApiKey: [] }, { UsageToken: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    'x-auth-class': route.auth,
  };
  if (example) {
    applyExample(operation, example);
    operation['x-codeSamples'] = codeSamples(route, example, serverUrl);
  }
  return operation;
}

function errorResponses(collector: SchemaCollector): Record<string, JsonSchema> {
  const badRequest = collector.add(BadRequest, 'output', 'error responses');
  const internal = { allOf: [badRequest, collector.add(InternalError, 'output', 'error responses')] };
  return Object.fromEntries(
    Object.entries(COMMON_ERRORS).map(([status, { name, description }]) => [
      name,
      { description, content: { 'application/json': { schema: status === '500' ? internal : badRequest } } },
    ]),
  );
}

/**
 * Builds the OpenAPI 3.1.0 document of the API from the contract: every route becomes an operation,
 * every schema registered with `.meta({ id })` a component (JSON Schema draft 2020-12 via zod), every example of
 * the contract (`contract/examples`) `example`s of its parameters, body and answer plus `x-codeSamples`.
 * Throws when the contract is inconsistent (two schemas with one id, a duplicated operation).
 *
 * @example
 * const document = buildOpenApiDocument(allRoutes, { serverUrl: 'https://api.example.com' });
 * document.paths['/v1/persona/list'].get.operationId; // 'personas.list'
 */
export function buildOpenApiDocument(routeList: RouteDefinition[], options: OpenApiOptions): OpenApiDocument {
  const examples = options.examples ?? examplesByOperationId(routes);
  const collector = new SchemaCollector();
  const responses = errorResponses(collector);
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  const operationIds = new Set<string>();
  for (const route of routeList) {
    const method = route.method.toLowerCase();
    const pathItem = (paths[route.path] ??= {});
    if (pathItem[method]) collector.problems.push(`Duplicated operation ${route.method} ${route.path}`);
    if (operationIds.has(route.operationId)) collector.problems.push(`Duplicated operationId ${route.operationId}`);
    operationIds.add(route.operationId);
    if (!tags.includes(route.tag)) tags.push(route.tag);
    pathItem[method] = operationOf(route, collector, examples.get(route.operationId), options.serverUrl ?? options.sampleServerUrl);
  }
  for (const { schema, side } of DOCUMENTED_SCHEMAS) collector.add(schema, side, 'documented schemas');
  const webhooks = webhookOperations(collector);
  const schemas = collector.finish();
  if (collector.problems.length > 0) throw new Error(`The contract cannot be described:\n- ${collector.problems.join('\n- ')}`);

  return {
    openapi: '3.1.0',
    info: { title: 'Palaver API', version: '1.0.0', description: openApiDescription() },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: tags.map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([left], [right]) => left.localeCompare(right))),
    webhooks,
    components: {
      schemas,
      responses,
      securitySchemes: securitySchemes(),
    },
    ...openApiExtensions(),
  };
}
