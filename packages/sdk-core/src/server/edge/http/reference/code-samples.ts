import type { RouteDefinition } from '../../../../contract/define-route.js';
import type { AnyRouteExample } from '../../../../contract/examples/index.js';
import { curlSample } from './curl-sample.js';
import { sdkSample } from './sdk-sample.js';

/** One entry of an operation's `x-codeSamples` (shown by the reference beside its generated clients). */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** Where the samples send requests when the server has no public URL configured: `pnpm start`'s platform. */
export const DEFAULT_SAMPLE_SERVER = 'http://127.0.0.1:8080';

/**
 * The code samples of an operation from its example: curl and the TypeScript client.
 *
 * @example
 * codeSamples(personaRoutes.create, example, 'http://127.0.0.1:8080').map((sample) => sample.label); // ['curl', 'TypeScript SDK']
 */
export function codeSamples(route: RouteDefinition, example: AnyRouteExample, serverUrl: string = DEFAULT_SAMPLE_SERVER): CodeSample[] {
  const base = serverUrl.replace(/\/+$/, '');
  return [
    { lang: 'shell', label: 'curl', source: curlSample(route, example, base) },
    { lang: 'typescript', label: 'TypeScript SDK', source: sdkSample(route, example, base) },
  ];
}
