import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../../src/contract/define-route.js';
import { allRoutes } from '../../src/contract/routes.js';
import { renderDocsPage } from '../../src/server/edge/http/docs-page.js';
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiOperation } from '../../src/server/edge/http/openapi.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

type JsonObject = Record<string, unknown>;

function operationOf(document: OpenApiDocument, route: RouteDefinition): OpenApiOperation {
  const operation = document.paths[route.path]?.[route.method.toLowerCase()];
  if (!operation) throw new Error(`No operation for ${route.method} ${route.path}`);
  return operation;
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsIn(item, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

const PUBLIC_URL = 'https://api.palaver.test';

/** The request content types of each body encoding. */
const BODY_TYPES = { json: ['application/json'], multipart: ['multipart/form-data'], sdp: ['application/sdp', 'multipart/form-data'] };

describe('GET /openapi.json', () => {
  let test: TestServer;
  let document: OpenApiDocument;
  beforeAll(async () => {
    test = await startTestServer('sqlite', { config: { publicUrl: PUBLIC_URL } });
    const response = await test.server.fetch(new Request('http://palaver.test/openapi.json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    document = (await response.json()) as OpenApiDocument;
  });
  afterAll(async () => test.close());

  it('is a valid OpenAPI 3.1.0 document, version 1.0.0, with the configured server', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers).toEqual([{ url: PUBLIC_URL }]);
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    // The validator does reject a broken document (a dangling reference), so the check above means something.
    const broken = structuredClone(document);
    broken.paths['/v1/persona/list']!.get!.responses['200'] = { $ref: '#/components/responses/Missing' };
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('describes every contract route once, with its operationId, tag, summary and deprecation', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(allRoutes.length);
    for (const route of allRoutes) {
      const operation = operationOf(document, route);
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.tags).toEqual([route.tag]);
      expect(operation.summary).toBe(route.summary);
      expect(Boolean(operation.deprecated), route.operationId).toBe(Boolean(route.deprecated));
    }
    expect(document.tags.map((tag) => tag.name)).toEqual([...new Set(allRoutes.map((route) => route.tag))]);
  });

  it('maps K to the API key scheme and K/B to either scheme, and documents x-human-id unless a route opts out', () => {
    expect(document.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(document.components.securitySchemes.UsageToken).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    for (const route of allRoutes) {
      const operation = operationOf(document, route);
      expect(operation.security, route.operationId).toEqual(route.auth === 'K' ? [{ ApiKey: [] }] : [{ ApiKey: [] }, { UsageToken: [] }]);
      const header = (operation.parameters ?? []).find((parameter) => parameter.in === 'header' && parameter.name === 'x-human-id');
      expect(Boolean(header), `${route.operationId} x-human-id`).toBe(route.humanHeader !== false);
    }
    const scenarioCreate = document.paths['/v1/scenario']!.post!;
    expect((scenarioCreate.parameters ?? []).some((parameter) => parameter.name === 'x-human-id')).toBe(false);
    const speak = document.paths['/v1/realtime/{session}/speak']!.post!;
    expect(speak.security).toEqual([{ ApiKey: [] }]);
  });

  it('declares every path parameter as required and every query parameter of the contract', () => {
    for (const route of allRoutes) {
      const operation = operationOf(document, route);
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const pathParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
      expect(pathParameters.map((parameter) => parameter.name).sort(), route.operationId).toEqual(names.sort());
      for (const parameter of pathParameters) expect(parameter.required).toBe(true);
      const queryNames = Object.keys(route.request?.query?.shape ?? {});
      expect((operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name)).toEqual(queryNames);
    }
    const list = document.paths['/v1/realtime/list']!.get!;
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: 'page', in: 'query', required: false }));
  });

  it('gives request bodies and success responses by kind (json, multipart, empty, binary, SSE)', () => {
    for (const route of allRoutes) {
      const operation = operationOf(document, route);
      const success = operation.responses['200'] as JsonObject;
      const content = success.content as Record<string, JsonObject> | undefined;
      if (route.success.kind === 'empty') expect(content, route.operationId).toBeUndefined();
      if (route.success.kind === 'json') expect(Object.keys(content!)).toEqual(['application/json']);
      if (route.success.kind === 'binary') expect(Object.keys(content!)).toEqual([...route.success.contentTypes]);
      if (route.success.kind === 'json-or-sse') expect(Object.keys(content!)).toEqual(['application/json', 'text/event-stream']);
      const body = operation.requestBody as { content: Record<string, unknown> } | undefined;
      if (!route.request?.body) expect(body, route.operationId).toBeUndefined();
      else expect(Object.keys(body!.content)).toEqual(BODY_TYPES[route.request.bodyEncoding ?? 'json']);
    }
    const start = document.paths['/v1/realtime/start']!.post!;
    expect(start.requestBody).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/RealtimeSessionStartRequest' } } },
    });
    const multipart = allRoutes.find((route) => route.request?.bodyEncoding === 'multipart');
    if (multipart) {
      const schema = (operationOf(document, multipart).requestBody as { content: Record<string, { schema: JsonObject }> }).content['multipart/form-data']!
        .schema;
      const resolved = typeof schema.$ref === 'string' ? document.components.schemas[schema.$ref.split('/').at(-1)!]! : schema;
      expect((resolved.properties as Record<string, JsonObject>).file).toMatchObject({ type: 'string' });
    }
  });

  it('lists the error responses: 400/401/403/413/500/501 always (any request can carry too large a body), 404 and 429 where declared', () => {
    for (const route of allRoutes) {
      const statuses = Object.keys(operationOf(document, route).responses);
      for (const status of ['200', '400', '401', '403', '413', '500', '501']) expect(statuses, route.operationId).toContain(status);
      expect(statuses.includes('404'), `${route.operationId} 404`).toBe(route.errors?.includes(404) ?? false);
      expect(statuses.includes('429'), `${route.operationId} 429`).toBe(route.errors?.includes(429) ?? false);
    }
    expect(document.components.responses.BadRequest).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/BadRequest' } } },
    });
  });

  it('resolves every $ref, and names the input form of a schema whose forms differ <id>Input', () => {
    const schemaNames = new Set(Object.keys(document.components.schemas));
    for (const reference of refsIn(document)) {
      const [, , kind, name] = reference.split('/');
      expect(kind === 'schemas' ? schemaNames.has(name!) : kind === 'responses' && name! in document.components.responses, reference).toBe(true);
    }
    const general = document.components.schemas.RealtimeSessionGeneralConfig!;
    const generalInput = document.components.schemas.RealtimeSessionGeneralConfigInput!;
    expect(general.required).toEqual(['time_limit_s', 'save_messages']);
    expect(generalInput.required ?? []).toEqual([]);
    expect(refsIn(document.components.schemas.RealtimeSessionConfigCreate)).toContain('#/components/schemas/RealtimeSessionGeneralConfigInput');
    expect(refsIn(document.components.schemas.RealtimeSessionConfig)).toContain('#/components/schemas/RealtimeSessionGeneralConfig');
    // Embedded resources of the response form are shared components, not copies.
    expect(refsIn(document.components.schemas.RealtimeSessionGenerativeConfig)).toEqual(
      expect.arrayContaining(['#/components/schemas/LLM', '#/components/schemas/Context', '#/components/schemas/ToolDefinition']),
    );
  });

  it('documents the schemas without routes and the non-HTTP endpoints as extensions', () => {
    for (const name of ['Session', 'SessionStartRequest', 'SDKAgentState', 'SDKConnectionState', 'SDKSessionTranscription']) {
      expect(document.components.schemas, name).toHaveProperty(name);
    }
    const extensions = document as unknown as { 'x-websockets': Record<string, JsonObject>; 'x-livekit': JsonObject };
    expect(extensions['x-websockets']['/v1/voice/websocket']).toMatchObject({ clientMessages: expect.any(Object), serviceMessages: expect.any(Object) });
    expect(JSON.stringify(extensions['x-websockets'])).toContain('start_session');
    expect(extensions['x-livekit'].paths).toContain('/rtc');
    expect(document.paths['/v1/voice/websocket']).toBeUndefined();
    expect(document.info.description).toContain('x-api-key');
  });
});

describe('buildOpenApiDocument on a synthetic contract', () => {
  const Shared = z.object({ name: z.string(), size: z.number().default(1) }).meta({ id: 'SyntheticShared' });
  const routeUsing = (schema: z.ZodType, operationId: string, path: string) =>
    defineRoute({
      operationId,
      method: 'POST',
      path,
      auth: 'K',
      tag: 'Test',
      summary: operationId,
      request: { body: schema },
      success: { kind: 'json', schema },
    });

  it('refuses two different schemas with one id', () => {
    const Impostor = z.object({ other: z.boolean() }).meta({ id: 'SyntheticShared' });
    expect(() => buildOpenApiDocument([routeUsing(Shared, 'a.one', '/one'), routeUsing(Impostor, 'a.two', '/two')], {})).toThrow(/SyntheticShared/);
  });

  it('refuses a duplicated operation', () => {
    expect(() => buildOpenApiDocument([routeUsing(Shared, 'a.one', '/one'), routeUsing(Shared, 'a.two', '/one')], {})).toThrow(/Duplicated operation/);
  });

  it('keeps one component when both forms agree and splits it when they differ', () => {
    const Plain = z.object({ name: z.string() }).meta({ id: 'SyntheticPlain' });
    const document = buildOpenApiDocument([routeUsing(Plain, 'a.plain', '/plain'), routeUsing(Shared, 'a.shared', '/shared')], {});
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['SyntheticPlain', 'SyntheticShared', 'SyntheticSharedInput']));
    expect(document.components.schemas).not.toHaveProperty('SyntheticPlainInput');
    const operation = document.paths['/shared']!.post!;
    expect(refsIn(operation.requestBody)).toEqual(['#/components/schemas/SyntheticSharedInput']);
    expect(refsIn(operation.responses['200'])).toEqual(['#/components/schemas/SyntheticShared']);
  });
});

describe('GET /docs/plain (the reference without scripts)', () => {
  let test: TestServer;
  let html: string;
  beforeAll(async () => {
    test = await startTestServer('sqlite');
    const response = await test.server.fetch(new Request('http://palaver.test/docs/plain'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    html = await response.text();
  });
  afterAll(async () => test.close());

  it('lists every operation with its method, path, auth and summary, grouped by tag', () => {
    for (const route of allRoutes) {
      expect(html, route.operationId).toContain(`id="op-${route.operationId}"`);
      expect(html).toContain(`<span class="path">${route.path}</span>`);
    }
    for (const tag of new Set(allRoutes.map((route) => route.tag))) expect(html).toContain(`<h2>${tag.replace(/&/g, '&#38;')}</h2>`);
    expect(html).toMatch(
      /<span class="method POST">POST<\/span><span class="path">\/v1\/realtime\/\{session\}\/speak<\/span>\s*<span class="badge auth"[^>]*>K<\/span>/,
    );
    expect(html).toContain('<span class="badge deprecated">deprecated</span>');
    expect(html).toContain('id="schema-RealtimeSession"');
    expect(html).toContain('href="/openapi.json"');
    expect(html).toContain('<input id="search"');
    expect(html).toContain('Usage token');
  });

  it('is self-contained: no external scripts, styles, fonts or images', () => {
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/);
    expect(html).toContain('<script>');
  });

  it('escapes every text it renders', () => {
    const route = defineRoute({
      operationId: 'evil.op',
      method: 'GET',
      path: '/evil',
      auth: 'K/B',
      tag: '<img src=x onerror=alert(1)>',
      summary: '"><script>alert(2)</script>',
      request: { query: z.object({ q: z.string().optional().describe('</td><script>alert(3)</script>') }) },
      success: { kind: 'json', schema: z.object({ value: z.string().describe('<b>bold</b>') }) },
    });
    const page = renderDocsPage('/spec?a=1&b="2"', buildOpenApiDocument([route], {}));
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<b>bold</b>');
    expect(page).toContain('&#60;script&#62;alert(2)&#60;/script&#62;');
    expect(page).toContain('href="/spec?a=1&#38;b=&#34;2&#34;"');
    expect(page.match(/<script>/g)).toHaveLength(1);
  });
});
