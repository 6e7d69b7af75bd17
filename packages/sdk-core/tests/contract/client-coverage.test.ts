import { expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { allRoutes } from '../../src/contract/routes.js';
import { Resource } from '../../src/client/resource.js';

/** Turns a contract path into a pattern matching its concrete URLs. */
function pathPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{[a-zA-Z0-9_]+\}/g, '[^/]+')}$`);
}

it('the client has a method for every route of the contract, and no method outside it', async () => {
  const called = new Set<string>();
  const unknown: string[] = [];
  const recordingFetch = async (request: Request) => {
    const path = new URL(request.url).pathname;
    // Prefer static routes over parametric ones, as the server does.
    const candidates = allRoutes.filter((route) => route.method === request.method && pathPattern(route.path).test(path));
    const route = candidates.find((candidate) => !candidate.path.includes('{')) ?? candidates[0];
    if (route) called.add(`${route.method} ${route.path}`);
    else unknown.push(`${request.method} ${path}`);
    return new Response('{"values":[],"total_count":0,"next_page":null}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const client = createClient({ baseUrl: 'http://palaver.test', apiKey: 'pk_coverage', fetch: recordingFetch, maxRetries: 0 });

  const resources = Object.values(client).flatMap((value) =>
    value instanceof Resource ? [value, ...Object.values(value).filter((inner) => inner instanceof Resource)] : [],
  );
  for (const resource of resources) {
    const prototype = Object.getPrototypeOf(resource) as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      if (name === 'constructor' || typeof prototype[name] !== 'function') continue;
      const method = prototype[name] as (...args: unknown[]) => unknown;
      // Methods take ids, bodies, id lists or uploads: try argument shapes until one sends a request.
      const attempts: unknown[][] = [['id-1', 'id-2', 'id-3'], [['id-1']], [{ name: 'n', language: 'en', file: new Blob(['x']) }], [{}]];
      for (const args of attempts) {
        const before = called.size + unknown.length;
        try {
          const result = method.call(resource, ...args);
          if (result && typeof (result as PromiseLike<unknown>).then === 'function') await (result as PromiseLike<unknown>);
          if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
            for await (const _item of result as AsyncIterable<unknown>) break;
          }
        } catch {
          // Only the request it sent matters here.
        }
        if (called.size + unknown.length > before) break;
      }
    }
  }

  const missing = allRoutes.map((route) => `${route.method} ${route.path}`).filter((route) => !called.has(route));
  expect(unknown).toEqual([]);
  expect(missing).toEqual([]);
});
