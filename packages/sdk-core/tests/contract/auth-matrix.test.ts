import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/contract/routes.js';
import type { RouteDefinition } from '../../src/contract/define-route.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** A server error is a defect; 501 is the honest answer of a declared route whose behaviour is not built yet. */
function expectNoServerError(answer: { status: number; body: string }): void {
  expect(answer.status < 500 || answer.status === 501, `${answer.status} ${answer.body}`).toBe(true);
}

function concretePath(route: RouteDefinition): string {
  return route.path.replace(/\{[a-zA-Z0-9_]+\}/g, 'auth-matrix-missing');
}

async function statusOf(test: TestServer, route: RouteDefinition, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const init: RequestInit = { method: route.method, headers: { ...headers } };
  if (route.method !== 'GET') {
    if (route.request?.bodyEncoding === 'multipart') init.body = new FormData();
    else {
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
      init.body = '{}';
    }
  }
  const response = await test.server.fetch(new Request(`http://palaver.test${concretePath(route)}`, init));
  return { status: response.status, body: await response.text() };
}

describe.each(await storeKinds())('auth matrix over every route (%s)', (kind) => {
  let test: TestServer;
  let token: string;
  let expiredToken: string;
  let revokedToken: string;

  beforeAll(async () => {
    test = await startTestServer(kind);
    token = (await test.client.usage.createToken({ human: 'matrix-a' })).token;
    revokedToken = (await test.client.usage.createToken({ human: 'matrix-revoked' })).token;
    await test.client.usage.revokeToken({ human: 'matrix-revoked' });
    expiredToken = (await test.client.usage.createToken({ human: 'matrix-expired', ttl_seconds: 1 })).token;
    await new Promise((resolve) => setTimeout(resolve, 1100));
  });
  afterAll(async () => test.close());

  it('covers the whole contract', () => {
    expect(allRoutes.length).toBeGreaterThan(0);
  });

  it.each(allRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', async (_name, route) => {
    const anonymous = await statusOf(test, route, {});
    expect(anonymous.status, anonymous.body).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({ type: 'unauthorized', message: expect.any(String) });

    expect((await statusOf(test, route, { 'x-api-key': 'pk_not_a_real_key_0000000000000000' })).status).toBe(401);
    expect((await statusOf(test, route, { authorization: `Bearer ${expiredToken}` })).status).toBe(401);
    expect((await statusOf(test, route, { authorization: `Bearer ${revokedToken}` })).status).toBe(401);
    expect((await statusOf(test, route, { authorization: 'Bearer not.a.jwt' })).status).toBe(401);

    const withKey = await statusOf(test, route, { 'x-api-key': test.server.apiKey });
    expect([401, 403], `${withKey.status} ${withKey.body}`).not.toContain(withKey.status);
    expectNoServerError(withKey);

    const withToken = await statusOf(test, route, { authorization: `Bearer ${token}` });
    if (route.auth === 'K') {
      expect(withToken.status, withToken.body).toBe(403);
      expect(JSON.parse(withToken.body)).toMatchObject({ type: 'forbidden' });
    } else {
      expect([401, 403], `${withToken.status} ${withToken.body}`).not.toContain(withToken.status);
      expectNoServerError(withToken);
    }
  });
});
