import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/contract/routes.js';
import type { RouteDefinition } from '../../src/contract/define-route.js';
import {
  parseSpecEndpoints,
  partFiveAuth,
  pathShape,
  readSpecIfPresent,
  recordedForm,
  recordedSpecEndpoints,
  specPath,
  type SpecEndpoint,
} from './spec-endpoints.js';

/** Read only when PALAVER_SPEC_PATH names it; the contract is always compared with the recorded endpoints. */
const spec = readSpecIfPresent();
const recorded = recordedSpecEndpoints();

/** Served by the server but not contract routes: the spec does not list them as HTTP operations. */
const ALLOWED_EXTRAS = ['/openapi.json', '/docs', '/health', '/metrics', '/favicon.ico', '/favicon.svg', '/rtc', '/v1/voice/websocket', '/v1/chat/audio'];

/**
 * Contract routes the spec does not list: Palaver extensions, each documented in the API reference and README.
 * OpenAI's model listing lets OpenAI clients (`openai.models.list()`) see the models chat completions takes; the
 * realtime agents list says which LiveKit Agents workers a session can choose; OpenAI's Responses API lets its clients
 * (`openai.responses.*`) use the platform's LLMs (decision 0096).
 */
const PALAVER_EXTENSIONS = [
  'GET /v1/models',
  'GET /v1/models/{model}',
  'GET /v1/realtime/agents',
  'POST /v1/responses',
  'GET /v1/responses/{response_id}',
  'DELETE /v1/responses/{response_id}',
  'GET /v1/responses/{response_id}/input_items',
  // OpenAI's audio endpoints over the platform's voices and STT engine (`openai.audio.speech`, `openai.audio.transcriptions`).
  'POST /v1/audio/speech',
  'POST /v1/audio/transcriptions',
  // Ephemeral keys of OpenAI's Realtime API (`openai.realtime.clientSecrets.create`): usage tokens (decision 0113).
  'POST /v1/realtime/client_secrets',
  // OpenAI's Realtime API over WebRTC (`@openai/agents-realtime`'s `OpenAIRealtimeWebRTC`): the SDP exchange, hang-up.
  'POST /v1/realtime/calls',
  'POST /v1/realtime/calls/{call_id}/hangup',
  // A session's recording of both sides (`general.recording`), deleted with the session (decision 0112).
  'GET /v1/realtime/{session}/recording',
  'DELETE /v1/realtime/{session}',
  // An app run's recording (`recording: true`), deleted with the run (decision 0122).
  'GET /v1/app/run/{run}/recording',
  'DELETE /v1/app/run/{run}',
];

function describeEndpoint(endpoint: SpecEndpoint): string {
  const where = endpoint.line === undefined ? '' : `spec line ${endpoint.line}, `;
  return `${endpoint.method} ${endpoint.path} [${endpoint.auth} from ${endpoint.authSource}] (${where}"${endpoint.section}")`;
}

function describeRoute(route: RouteDefinition): string {
  return `${route.method} ${route.path} [${route.auth}] (${route.operationId})`;
}

/** Compares the spec's endpoints with the contract; every difference is one readable line. */
function compare(endpoints: SpecEndpoint[], routes: RouteDefinition[]) {
  const missing: string[] = [];
  const extra: string[] = [];
  const mismatched: string[] = [];
  const duplicated: string[] = [];
  const key = (method: string, path: string) => `${method} ${pathShape(path)}`;

  const routesByKey = new Map<string, RouteDefinition[]>();
  for (const route of routes) routesByKey.set(key(route.method, route.path), [...(routesByKey.get(key(route.method, route.path)) ?? []), route]);
  const specKeys = new Set(endpoints.map((endpoint) => key(endpoint.method, endpoint.path)));

  for (const endpoint of endpoints) {
    const candidates = routesByKey.get(key(endpoint.method, endpoint.path)) ?? [];
    if (candidates.length === 0) {
      missing.push(describeEndpoint(endpoint));
      continue;
    }
    if (candidates.length > 1) duplicated.push(`${describeEndpoint(endpoint)} has ${candidates.length} routes: ${candidates.map(describeRoute).join(', ')}`);
    const route = candidates[0]!;
    if (route.path !== endpoint.path) mismatched.push(`${describeRoute(route)}: path parameters should be named as in the spec, ${endpoint.path}`);
    if (route.auth !== endpoint.auth)
      mismatched.push(`${describeRoute(route)}: auth should be ${endpoint.auth} (${endpoint.authSource}, "${endpoint.section}")`);
    if (Boolean(route.deprecated) !== endpoint.deprecated) {
      mismatched.push(`${describeRoute(route)}: deprecated should be ${endpoint.deprecated} ("${endpoint.section}")`);
    }
    if (endpoint.noHumanHeader && route.humanHeader !== false) {
      mismatched.push(`${describeRoute(route)}: the spec says it has no x-human-id parameter (set humanHeader: false)`);
    }
  }
  for (const route of routes) {
    if (!specKeys.has(key(route.method, route.path)) && !PALAVER_EXTENSIONS.includes(`${route.method} ${route.path}`)) extra.push(describeRoute(route));
    if (ALLOWED_EXTRAS.some((path) => route.path === path || route.path.startsWith(`${path}/`))) {
      extra.push(`${describeRoute(route)}: ${route.path} is served outside the contract`);
    }
  }
  return { missing, extra, mismatched, duplicated };
}

describe.runIf(spec)('spec endpoint tables (parser)', () => {
  const endpoints = spec === undefined ? [] : parseSpecEndpoints(spec);
  const find = (method: string, path: string) => endpoints.find((endpoint) => endpoint.method === method && endpoint.path === path);

  it(`reads every endpoint of part 4 from ${specPath() ?? 'the spec'}`, () => {
    // 78 table rows plus chat completions, stated in prose.
    expect(endpoints).toHaveLength(79);
    const keys = endpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const endpoint of endpoints) expect(endpoint.path, describeEndpoint(endpoint)).toMatch(/^\/v1\/[a-z_]+(\/[a-z_{}]+)*$/);
  });

  it('takes the auth class from the Auth column, the section header, prose or the part-5 rule', () => {
    expect(find('POST', '/v1/chat/completions')).toMatchObject({ auth: 'K/B', authSource: 'prose' });
    expect(find('GET', '/v1/usage/limits')).toMatchObject({ auth: 'K/B', authSource: 'auth column', deprecated: true });
    expect(find('PUT', '/v1/usage/token')).toMatchObject({ auth: 'K', deprecated: true });
    expect(find('POST', '/v1/credit')).toMatchObject({ auth: 'K', authSource: 'auth column' });
    expect(find('GET', '/v1/credit/list')).toMatchObject({ auth: 'K/B' });
    expect(find('POST', '/v1/realtime/{session}/speak')).toMatchObject({ auth: 'K', authSource: 'auth column' });
    expect(find('DELETE', '/v1/tool/{tool}')).toMatchObject({ auth: 'K', authSource: 'section header' });
    expect(find('POST', '/v1/app/subgraph/create')).toMatchObject({ auth: 'K/B', authSource: 'section header' });
    expect(find('GET', '/v1/analytics/conversation_messages')).toMatchObject({ auth: 'K/B', authSource: 'section header' });
    expect(find('POST', '/v1/persona')).toMatchObject({ auth: 'K/B', authSource: 'part 5 rule' });
    expect(find('POST', '/v1/voice/clone')).toMatchObject({ auth: 'K/B', authSource: 'part 5 rule' });
    expect(find('POST', '/v1/scenario')).toMatchObject({ noHumanHeader: true });
    expect(endpoints.filter((endpoint) => endpoint.auth === 'K')).toHaveLength(5 + 2 + 1 + 5); // usage tokens, credit + ledger creation, speak, tools
  });

  it('agrees with the part-5 rule wherever the rule applies', () => {
    for (const endpoint of endpoints) expect(partFiveAuth(endpoint.method, endpoint.path), describeEndpoint(endpoint)).toBe(endpoint.auth);
  });

  it('is what spec-endpoints.snapshot.json records (regenerate it with record-spec-endpoints.ts when the spec changes)', () => {
    expect(recorded).toEqual(endpoints.map(recordedForm));
  });
});

describe('the contract matches the spec', () => {
  const endpoints = spec === undefined ? recorded : parseSpecEndpoints(spec);

  it('compares against all 79 endpoints of part 4', () => {
    expect(endpoints).toHaveLength(79);
  });
  const { missing, extra, mismatched, duplicated } = compare(endpoints, allRoutes);

  it('has a route for every spec endpoint', () => {
    expect(missing, `Missing from the contract (${missing.length}):\n${missing.join('\n')}`).toEqual([]);
  });

  it('has no route outside the spec', () => {
    expect(extra, `In the contract but not in the spec (${extra.length}):\n${extra.join('\n')}`).toEqual([]);
  });

  it('has exactly one route per endpoint', () => {
    expect(duplicated, duplicated.join('\n')).toEqual([]);
  });

  it('matches auth class, path parameter names, deprecation and the x-human-id exception', () => {
    expect(mismatched, `Differences (${mismatched.length}):\n${mismatched.join('\n')}`).toEqual([]);
  });
});

describe('the contract', () => {
  it('gives every route a unique operationId', () => {
    const ids = allRoutes.map((route) => route.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });
});
