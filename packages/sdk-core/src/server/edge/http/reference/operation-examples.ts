import type { RouteDefinition } from '../../../../contract/define-route.js';
import type { AnyRouteExample } from '../../../../contract/examples/index.js';
import type { JsonSchema } from '../openapi-components.js';

/** The auth marks in words, as each operation's description starts. */
export const AUTH_IN_WORDS: Record<RouteDefinition['auth'], string> = {
  K: '**Auth: K** (API key only): send the secret key as `x-api-key` (or `Authorization: Bearer pk_...`). Usage tokens are refused with 403.',
  'K/B':
    '**Auth: K/B** (API key or usage token): an API key as `x-api-key`, or a usage token minted for one human as `Authorization: Bearer <token>` (safe in a browser).',
};

/** The server-sent events of a streamed answer, as they are written (`[DONE]` last). */
function eventStream(events: unknown[]): string {
  return `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`;
}

function exampleOfParameter(parameter: JsonSchema, example: AnyRouteExample): unknown {
  if (parameter.in === 'path') return example.params?.[parameter.name as string];
  if (parameter.in === 'query') return example.query?.[parameter.name as string];
  if (parameter.in === 'header' && parameter.name === 'x-human-id') return example.human;
  return undefined;
}

/**
 * Puts an example call into an operation of the OpenAPI document: `example` on its parameters, its request body and
 * its 200 answer (JSON, and the event stream of a streamed answer); the example's description joins the
 * operation's.
 *
 * @example
 * applyExample(operation, example);
 */
export function applyExample(
  operation: { description?: string; parameters?: JsonSchema[]; requestBody?: JsonSchema; responses: Record<string, JsonSchema> },
  example: AnyRouteExample,
): void {
  if (example.description) operation.description = `${operation.description ?? ''}\n\n${example.description}`.trim();
  for (const parameter of operation.parameters ?? []) {
    const value = exampleOfParameter(parameter, example);
    if (value !== undefined) parameter.example = value;
  }
  const requestContent = (operation.requestBody?.content ?? {}) as Record<string, JsonSchema>;
  for (const media of Object.values(requestContent)) if (example.body !== undefined) media.example = example.body;
  const answer = (operation.responses['200']?.content ?? {}) as Record<string, JsonSchema>;
  if (answer['application/json'] && example.response !== undefined) answer['application/json'].example = example.response;
  if (answer['text/event-stream'] && example.events) answer['text/event-stream'].example = eventStream(example.events);
}
