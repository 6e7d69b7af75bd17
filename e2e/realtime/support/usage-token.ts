import type { PalaverServer } from '@palaver/sdk-core/server';

let visitors = 0;

/**
 * A usage token for a new human of the project, as an app backend mints it.
 *
 * @example
 * await page.evaluate(([url, options]) => window.appRun.connect(url, options), [server.url!, { token: await usageToken(server), graph }] as const);
 */
export async function usageToken(server: PalaverServer): Promise<string> {
  visitors += 1;
  const response = await server.fetch(
    new Request('http://palaver.test/v1/usage/token', {
      method: 'POST',
      headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ human: `browser-human-${visitors}`, ttl_seconds: 600 }),
    }),
  );
  return ((await response.json()) as { token: string }).token;
}
