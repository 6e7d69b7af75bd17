import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { RouteDefinition } from '../../src/contract/define-route.js';
import { routeExamples, type AnyRouteExample, type RouteExample } from '../../src/contract/examples/index.js';
import type { personaRoutes } from '../../src/contract/personas.js';
import { allRoutes, routes } from '../../src/contract/routes.js';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/server/edge/http/openapi.js';

type JsonObject = Record<string, unknown>;

const examplesOf = routeExamples as unknown as Record<string, Record<string, AnyRouteExample | undefined>>;
const everyRoute = Object.entries(routes).flatMap(([group, members]) =>
  Object.entries(members as Record<string, RouteDefinition>).map(([name, route]) => ({ group, name, route, example: examplesOf[group]?.[name] })),
);

/** Key paths of `example` that parsing dropped: a misspelt or undeclared field that an object schema strips. */
function strippedKeys(example: unknown, parsed: unknown, path = ''): string[] {
  if (Array.isArray(example) && Array.isArray(parsed)) return example.flatMap((item, index) => strippedKeys(item, parsed[index], `${path}[${index}]`));
  if (example === null || typeof example !== 'object' || parsed === null || typeof parsed !== 'object') return [];
  return Object.entries(example as JsonObject).flatMap(([key, value]) =>
    value !== undefined && !(key in (parsed as JsonObject)) ? [`${path}.${key}`] : strippedKeys(value, (parsed as JsonObject)[key], `${path}.${key}`),
  );
}

/** Parses one part of an example with its schema; answers what is wrong with it. */
function problemsOf(schema: z.ZodType, value: unknown, where: string): string[] {
  const result = schema.safeParse(value);
  if (!result.success) return result.error.issues.map((issue) => `${where}.${issue.path.join('.')}: ${issue.message}`);
  return strippedKeys(value, result.data).map((key) => `${where}${key}: not in the schema`);
}

/** A multipart example names its files: parsed with a file of that name in their place. */
function withFiles(route: RouteDefinition, body: unknown): unknown {
  if (route.request?.bodyEncoding !== 'multipart' || body === null || typeof body !== 'object') return body;
  const shape = (route.request.body as z.ZodObject).shape as Record<string, { _zod: { def: { type: string } } }>;
  return Object.fromEntries(
    Object.entries(body as JsonObject).map(([key, value]) => [
      key,
      shape[key]?._zod.def.type === 'file' ? new File([new Uint8Array([1, 2, 3])], String(value)) : value,
    ]),
  );
}

describe('the contract examples', () => {
  it('cover every route with the parts it declares: path parameters, body, the JSON answer and streamed events', () => {
    expect(everyRoute).toHaveLength(allRoutes.length);
    const missing: string[] = [];
    for (const { route, example } of everyRoute) {
      if (!example) {
        missing.push(`${route.operationId}: no example`);
        continue;
      }
      if (route.request?.params && !example.params) missing.push(`${route.operationId}: params`);
      if (route.request?.body && example.body === undefined) missing.push(`${route.operationId}: body`);
      if ((route.success.kind === 'json' || route.success.kind === 'json-or-sse') && example.response === undefined)
        missing.push(`${route.operationId}: response`);
      if (route.success.kind === 'json-or-sse' && !example.events?.length) missing.push(`${route.operationId}: events`);
      if (!route.request?.query && example.query) missing.push(`${route.operationId}: a query the route does not take`);
    }
    expect(missing).toEqual([]);
  });

  it('parse with their schemas, and no field of theirs is dropped by parsing', () => {
    const problems: string[] = [];
    for (const { route, example } of everyRoute) {
      if (!example) continue;
      const id = route.operationId;
      if (route.request?.params) problems.push(...problemsOf(route.request.params, example.params, `${id} params`));
      if (route.request?.query && example.query) problems.push(...problemsOf(route.request.query, example.query, `${id} query`));
      if (route.request?.body) problems.push(...problemsOf(route.request.body, withFiles(route, example.body), `${id} body`));
      if (route.success.kind === 'json' || route.success.kind === 'json-or-sse')
        problems.push(...problemsOf(route.success.schema, example.response, `${id} response`));
      if (route.success.kind === 'json-or-sse') {
        const event = route.success.event;
        (example.events ?? []).forEach((item, index) => problems.push(...problemsOf(event, item, `${id} event ${index}`)));
      }
      // The path parameters fill the route's template, no more and no fewer.
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      expect(Object.keys(example.params ?? {}).sort(), id).toEqual(names);
    }
    expect(problems).toEqual([]);
  });

  it('are typed from the schemas: a missing or wrong part does not compile', () => {
    type Retrieve = typeof personaRoutes.retrieve;
    // @ts-expect-error the answer of a JSON operation is required
    const withoutAnswer: RouteExample<Retrieve> = { params: { persona_id: 'persona_1' } };
    // @ts-expect-error the path parameter is named persona_id
    const misnamed: RouteExample<Retrieve> = { params: { persona: 'persona_1' }, response: {} as z.output<Retrieve['success']['schema']> };
    // @ts-expect-error a route without a body takes no body example
    const withBody: RouteExample<typeof personaRoutes.list> = { body: {}, response: { values: [], total_count: 0, next_page: null } };
    expect([withoutAnswer, misnamed, withBody]).toHaveLength(3);
  });

  it('reach the OpenAPI document: parameters, request bodies, answers and streamed events carry them', () => {
    const document: OpenApiDocument = buildOpenApiDocument(allRoutes, {});
    for (const { route, example } of everyRoute) {
      const operation = document.paths[route.path]![route.method.toLowerCase()]!;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'path')
          expect(parameter.example, `${route.operationId} ${String(parameter.name)}`).toBe(example!.params![parameter.name as string]);
      }
      const body = operation.requestBody as { content: Record<string, JsonObject> } | undefined;
      if (body) for (const media of Object.values(body.content)) expect(media.example, route.operationId).toEqual(example!.body);
      const answer = (operation.responses['200'] as { content?: Record<string, JsonObject> }).content;
      if (route.success.kind === 'json' || route.success.kind === 'json-or-sse')
        expect(answer!['application/json']!.example, route.operationId).toEqual(example!.response);
      if (route.success.kind === 'json-or-sse') expect(answer!['text/event-stream']!.example).toMatch(/^data: \{.*\n\ndata: \[DONE\]\n\n$/s);
      expect(operation.description, route.operationId).toMatch(
        route.auth === 'K' ? /^\*\*Auth: K\*\* \(API key only\)/ : /^\*\*Auth: K\/B\*\* \(API key or usage token\)/,
      );
    }
    const listVoices = document.paths['/v1/voice/list']!.get!;
    expect(listVoices.parameters).toContainEqual(expect.objectContaining({ name: 'tags', in: 'query', example: ['gender:female'] }));
    const ledger = document.paths['/v1/credit/{credit}/ledger']!.post!;
    expect(ledger.parameters).toContainEqual(expect.objectContaining({ name: 'x-human-id', in: 'header', example: 'user-42' }));
  });
});
