import type { RouteDefinition } from '../../../../contract/define-route.js';
import type { AnyRouteExample } from '../../../../contract/examples/index.js';

/** A value inside single quotes for a POSIX shell. */
function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function queryString(query: Record<string, unknown> | undefined): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    // Array parameters are sent comma-separated (the server also takes them repeated).
    parameters.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = parameters.toString().replace(/%2C/g, ',').replace(/%3A/g, ':');
  return text === '' ? '' : `?${text}`;
}

function filledPath(route: RouteDefinition, example: AnyRouteExample): string {
  return route.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(String(example.params?.[name] ?? `{${name}}`)));
}

/**
 * The curl command of an example call. The key comes from `$PALAVER_API_KEY`; K/B operations say in a comment that
 * a usage token works too.
 *
 * @example
 * curlSample(personaRoutes.retrieve, example, 'http://127.0.0.1:8080');
 */
/** Where curl writes a binary answer, by its content type. */
const BINARY_OUTPUT: Record<string, string> = { 'audio/mpeg': 'speech.mp3', 'application/sdp': 'answer.sdp' };

export function curlSample(route: RouteDefinition, example: AnyRouteExample, serverUrl: string): string {
  const lines = [
    `curl -X ${route.method} ${shellQuoted(`${serverUrl}${filledPath(route, example)}${queryString(example.query)}`)}`,
    `-H "x-api-key: $PALAVER_API_KEY"`,
  ];
  if (example.human !== undefined) lines.push(`-H ${shellQuoted(`x-human-id: ${example.human}`)}`);
  const body = route.request?.body ? example.body : undefined;
  if (body !== undefined && route.request?.bodyEncoding === 'multipart') {
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      const isFile = typeof value === 'string' && name === 'file';
      lines.push(`-F ${shellQuoted(`${name}=${isFile ? '@' : ''}${String(value)}`)}`);
    }
  } else if (body !== undefined && route.request?.bodyEncoding === 'sdp') {
    lines.push(`-H 'content-type: application/sdp'`, `--data-binary @offer.sdp`);
  } else if (body !== undefined) {
    lines.push(`-H 'content-type: application/json'`, `-d ${shellQuoted(JSON.stringify(body, null, 2).replace(/\n/g, '\n  '))}`);
  }
  if (route.success.kind === 'binary') lines.push(`--output ${BINARY_OUTPUT[route.success.contentTypes[0]!] ?? 'answer.bin'}`);
  const note =
    route.auth === 'K/B'
      ? '# K/B: an API key, or a usage token as\n# -H "authorization: Bearer $PALAVER_USAGE_TOKEN"\n'
      : '# K: an API key only (no usage token)\n';
  return `${note}${lines.join(' \\\n  ')}`;
}
