import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../src/contract/define-route.js';
import { routes } from '../../src/contract/routes.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Deterministic PRNG (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BODIES_PER_FAMILY = 1000;

function garbageValue(next: () => number, depth = 0): unknown {
  const choices: Array<() => unknown> = [
    () => null,
    () => Math.floor(next() * 2 ** 40) * (next() < 0.5 ? -1 : 1),
    () => next() * 1e308,
    () => next() < 0.5,
    () => '',
    () => 'x'.repeat(Math.floor(next() * 300_000)),
    () => '\u0000\ud800<script>',
    () => '2026-13-45T99:99:99Z',
    () => (depth < 3 ? [garbageValue(next, depth + 1), garbageValue(next, depth + 1)] : []),
    () => (depth < 3 ? { nested: garbageValue(next, depth + 1), __proto__: { polluted: true } } : {}),
  ];
  return choices[Math.floor(next() * choices.length)]!();
}

function fieldNames(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown>; def?: { shape?: Record<string, unknown> } }).shape;
  return shape ? Object.keys(shape) : [];
}

/** A body that is malformed JSON, the wrong JSON type, or an object whose known fields hold garbage. */
function malformedBody(next: () => number, route: RouteDefinition): string {
  const kind = next();
  if (kind < 0.15) return ['{', '{"a":', '[1,2', 'nul', '{"a" 1}', '\u0000', '{}}'][Math.floor(next() * 7)]!;
  if (kind < 0.3) return JSON.stringify(garbageValue(next));
  const body: Record<string, unknown> = {};
  for (const field of fieldNames(route.request?.body)) if (next() < 0.7) body[field] = garbageValue(next);
  return JSON.stringify(body);
}

describe('malformed input never causes a server error', () => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer('sqlite', { config: { maxBodyBytes: 512 * 1024 } });
  });
  afterAll(async () => test.close());

  const families = Object.entries(routes)
    .map(
      ([name, group]) =>
        [
          name,
          Object.values(group as Record<string, RouteDefinition>).filter((route) => route.request?.body && route.request.bodyEncoding !== 'multipart'),
        ] as const,
    )
    .filter(([, bodyRoutes]) => bodyRoutes.length > 0);

  it.each(families)(
    `%s: ${BODIES_PER_FAMILY} malformed bodies -> 4xx with the BadRequest shape`,
    async (name, bodyRoutes) => {
      const next = random(name.length * 7919);
      let rejected = 0;
      for (let index = 0; index < BODIES_PER_FAMILY; index += 1) {
        const route = bodyRoutes[index % bodyRoutes.length]!;
        const body = malformedBody(next, route);
        let parsedBody: unknown;
        try {
          parsedBody = JSON.parse(body);
        } catch {
          parsedBody = Symbol('not json');
        }
        const schemaAccepts = typeof parsedBody !== 'symbol' && route.request!.body!.safeParse(parsedBody).success;
        const path = route.path.replace(/\{[a-zA-Z0-9_]+\}/g, 'fuzz-id');
        const response = await test.server.fetch(
          new Request(`http://palaver.test${path}`, {
            method: route.method,
            headers: { 'x-api-key': test.server.apiKey, 'content-type': 'application/json' },
            body,
          }),
        );
        const text = await response.text();
        if (schemaAccepts) {
          // Valid by the schema: any answer but a server error (501 marks routes not built yet).
          expect(response.status < 500 || response.status === 501, `${route.method} ${route.path} ${response.status} ${text}`).toBe(true);
          continue;
        }
        expect(response.status, `${route.method} ${route.path} body=${body.slice(0, 200)} -> ${text}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${route.method} ${route.path} -> ${text}`).toBeLessThan(500);
        const answer = JSON.parse(text) as { type?: unknown; message?: unknown };
        expect(typeof answer.type).toBe('string');
        expect(typeof answer.message).toBe('string');
        rejected += 1;
      }
      expect(rejected).toBeGreaterThan(BODIES_PER_FAMILY * 0.5);
    },
    120_000,
  );
});
