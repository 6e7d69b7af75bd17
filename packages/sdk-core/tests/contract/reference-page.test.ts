import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/kernel/config.js';
import type { OpenApiDocument } from '../../src/server/edge/http/openapi.js';
import { locateScalarBundle } from '../../src/server/edge/http/reference/scalar-bundle.js';
import { registerReferenceRoutes, scalarBundlePath } from '../../src/server/edge/http/reference/reference-routes.js';
import { isLoopbackHost } from '../../src/server/edge/http/reference/try-it-key.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const installed = JSON.parse(readFileSync(new URL('../../node_modules/@scalar/api-reference/package.json', import.meta.url), 'utf8')) as { version: string };

function configOf(html: string): Record<string, unknown> {
  const match = /<script id="palaver-reference-config" type="application\/json">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error('no configuration in the page');
  return JSON.parse(match[1]!) as Record<string, unknown>;
}

describe("GET /docs: Scalar's API reference served by the platform", () => {
  let test: TestServer;
  let developing: TestServer;
  const get = (server: TestServer, path: string, headers: Record<string, string> = {}) =>
    server.server.fetch(new Request(`http://127.0.0.1:8080${path}`, { headers }));
  beforeAll(async () => {
    [test, developing] = await Promise.all([startTestServer('sqlite'), startTestServer('sqlite', { config: { docs: { prefillDevKey: true } } })]);
  });
  afterAll(async () => Promise.all([test?.close(), developing?.close()]));

  it('loads the bundled script and its own from this server, never a CDN, under a policy that allows nothing else', async () => {
    const response = await get(test, '/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]!);
    expect(scripts).toEqual([
      ' id="palaver-reference-config" type="application/json"',
      ` src="${scalarBundlePath(installed.version)}"`,
      ' src="/docs/assets/reference.js"',
    ]);
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//i);
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self';");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(configOf(html)).toMatchObject({
      url: '/openapi.json',
      servers: [{ url: 'http://127.0.0.1:8080' }],
      withDefaultFonts: false,
      telemetry: false,
      authentication: { preferredSecurityScheme: 'ApiKey' },
    });
  });

  it('serves the bundle as JavaScript, gzipped when accepted, cached for good under its version', async () => {
    const plain = await get(test, scalarBundlePath(installed.version));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toContain('immutable');
    const script = await plain.text();
    expect(script).toContain('createApiReference');
    const gzipped = await get(test, scalarBundlePath(installed.version), { 'accept-encoding': 'gzip, br' });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    const bytes = Buffer.from(await gzipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(script.length / 2);
    expect(gunzipSync(bytes).toString('utf8')).toBe(script);
    expect((await get(test, scalarBundlePath('0.0.1'))).status).toBe(404);
    const own = await get(test, '/docs/assets/reference.js');
    expect(own.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await own.text()).toContain("Scalar.createApiReference('#app', config)");
  });

  it('fills in the development key only for a development server opened on this machine', async () => {
    const keyOf = async (server: TestServer, host: string) => {
      const response = await get(server, '/docs', { host });
      const html = await response.text();
      return { html, cache: response.headers.get('cache-control'), config: configOf(html) };
    };
    const local = await keyOf(developing, 'localhost:8080');
    expect(local.config.authentication).toEqual({ preferredSecurityScheme: 'ApiKey', securitySchemes: { ApiKey: { value: developing.server.apiKey } } });
    expect(local.cache).toBe('no-store');
    expect((await keyOf(developing, '127.0.0.1:8080')).html).toContain(developing.server.apiKey);
    // Any other host name (a proxy, a LAN address, a DNS-rebinding page) never gets it.
    for (const host of ['palaver.example.com', '192.168.1.20:8080', 'localhost.evil.test']) {
      expect((await keyOf(developing, host)).html, host).not.toContain(developing.server.apiKey);
    }
    // Nor does a server not started for development, whatever the host.
    const production = await keyOf(test, 'localhost:8080');
    expect(production.html).not.toContain(test.server.apiKey);
    expect(production.cache).toBe('no-cache');
  });

  it('explains the K and K/B marks in words: in the introduction, the security schemes and every operation', async () => {
    const document = (await (await get(test, '/openapi.json')).json()) as OpenApiDocument;
    expect(document.info.description).toContain('## Auth marks: K and K/B');
    expect(document.info.description).toMatch(/- \*\*K\*\*: an API key only\./);
    expect(document.info.description).toMatch(/- \*\*K\/B\*\*: an API key or a usage token \(B for bearer\)\./);
    expect(document.components.securitySchemes.ApiKey!.description).toMatch(/the K operations accept nothing else, the K\/B ones accept a usage token instead/);
    expect(document.components.securitySchemes.UsageToken!.description).toMatch(
      /Accepted by the K\/B operations \(B for bearer\), refused with 403 by the K ones/,
    );
    const speak = document.paths['/v1/realtime/{session}/speak']!.post!;
    expect(speak.description).toMatch(/^\*\*Auth: K\*\* \(API key only\)/);
  });

  it('tells loopback host names apart', () => {
    for (const host of ['localhost', 'localhost:3000', '127.0.0.1', '127.1.2.3:80', '[::1]', '[::1]:8080']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [undefined, '', 'example.com', '127.0.0.1.nip.io', 'localhost.example', '[::2]:80', '10.0.0.1'])
      expect(isLoopbackHost(host), String(host)).toBe(false);
  });

  it("falls back to the built-in reference when Scalar's bundle is not found (neither @palaver/sdk-node's copy nor the package)", async () => {
    // In this repository the bundle is the development dependency's (the lookup order: scalar-bundle-lookup.test.ts).
    expect(locateScalarBundle()).toMatchObject({ version: installed.version, file: expect.stringMatching(/standalone\.js$/), gzipped: false });
    const app = new Hono();
    registerReferenceRoutes(app, { config: loadConfig({}), projects: { developmentKey: () => 'pk_never' } as never }, { locateBundle: () => undefined });
    const html = await (await app.request('/docs')).text();
    expect(html).toContain('<input id="search"');
    expect(html).not.toContain('palaver-reference-config');
    expect((await app.request(scalarBundlePath(installed.version))).status).toBe(404);
    expect(await (await app.request('/docs/plain')).text()).toContain('id="node-catalogue"');
  });
});
