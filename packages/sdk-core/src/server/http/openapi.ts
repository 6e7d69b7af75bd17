import type { RouteDefinition } from '../../contract/define-route.js';

// Placeholder: the full generator is being written.
export function buildOpenApiDocument(routeList: RouteDefinition[], _options: { serverUrl?: string | undefined }): object {
  return { openapi: '3.1.0', info: { title: 'Palaver API', version: '1.0.0' }, paths: Object.fromEntries(routeList.map((route) => [route.path, {}])) };
}
