import type { RouteDefinition } from '../../../../contract/define-route.js';
import type { AnyRouteExample } from '../../../../contract/examples/index.js';
import { sdkCall } from './sdk-calls.js';
import { quoted } from './source-literal.js';

/**
 * The TypeScript code sample of an example call: `createClient` from `@palaver/sdk-core` and the client method of
 * the operation. A test type-checks every sample against the client.
 *
 * @example
 * sdkSample(personaRoutes.retrieve, example, 'http://127.0.0.1:8080');
 */
export function sdkSample(route: RouteDefinition, example: AnyRouteExample, serverUrl: string): string {
  const call = sdkCall(route, example);
  const options = [`baseUrl: ${quoted(serverUrl)}`, 'apiKey: process.env.PALAVER_API_KEY'];
  if (example.human !== undefined) options.push(`humanId: ${quoted(example.human)}`);
  const args = call.args.join(', ');
  const invocation = `client.${call.method}(${args})`;
  const answer =
    route.success.kind === 'empty'
      ? [`await ${invocation};`]
      : route.success.kind === 'binary'
        ? [`const audio = await ${invocation}; // a Blob`]
        : [`const answer = await ${invocation};`, 'console.log(answer);'];
  const browser = route.auth === 'K/B' ? ['// K/B: a browser passes usageToken instead'] : [];
  return [
    "import { createClient } from '@palaver/sdk-core';",
    ...(call.imports ?? []),
    '',
    ...browser,
    `const client = createClient({\n${options.map((option) => `  ${option},`).join('\n')}\n});`,
    ...answer,
  ].join('\n');
}
