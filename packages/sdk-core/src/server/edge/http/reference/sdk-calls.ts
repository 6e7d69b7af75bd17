import type { RouteDefinition } from '../../../../contract/define-route.js';
import type { AnyRouteExample } from '../../../../contract/examples/index.js';
import { quoted, sourceLiteral } from './source-literal.js';

/** How the TypeScript client calls one operation: the method's path on the client and its arguments as source. */
export interface SdkCall {
  /** e.g. `personas.create`, `chat.completions.create`. */
  method: string;
  /** Each argument as TypeScript source. */
  args: string[];
  /** Import lines the arguments need. */
  imports?: string[];
}

type CallRule = (route: RouteDefinition, example: AnyRouteExample) => Partial<SdkCall>;

/**
 * Operations whose client method differs from the rule (method `<operationId>`, arguments: the path parameters in
 * the path's order, then the body, then the query when the example has one).
 */
const EXCEPTIONS: Record<string, CallRule> = {
  'chat.create': () => ({ method: 'chat.completions.create' }),
  // The client takes the ids as an array and sends them comma-separated.
  'contexts.list': (_route, example) => ({ args: [sourceLiteral(example.query?.context_ids ?? [])] }),
  // A multipart upload: the client builds the form from the recording.
  'voices.clone': (_route, example) => {
    const body = (example.body ?? {}) as { name?: string; language?: string; file?: string };
    return {
      imports: ["import { openAsBlob } from 'node:fs';"],
      args: [`{ name: ${quoted(body.name ?? '')}, language: ${quoted(body.language ?? '')}, file: await openAsBlob(${quoted(body.file ?? 'recording.mp3')}) }`],
    };
  },
  // A multipart upload as well: the recording opened as a Blob, the other fields as given.
  'audio.transcriptions': (_route, example) => {
    const { file, ...fields } = (example.body ?? {}) as { file?: string } & Record<string, unknown>;
    return {
      imports: ["import { openAsBlob } from 'node:fs';"],
      args: [`{ ...${sourceLiteral(fields)}, file: await openAsBlob(${quoted(file ?? 'audio.wav')}) }`],
    };
  },
  // A WebRTC offer: the SDP text, then the query.
  'openaiRealtime.createCall': (_route, example) => ({
    args: [sourceLiteral((example.body as { sdp?: string } | undefined)?.sdp ?? ''), sourceLiteral(example.query ?? {})],
  }),
};

function defaultArgs(route: RouteDefinition, example: AnyRouteExample): string[] {
  const args = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => quoted(String(example.params?.[match[1]!] ?? match[1])));
  if (route.request?.body) args.push(sourceLiteral(example.body ?? {}));
  if (route.request?.query && example.query && Object.keys(example.query).length > 0) args.push(sourceLiteral(example.query));
  return args;
}

/**
 * The client call of an operation, for its TypeScript code sample.
 *
 * @example
 * sdkCall(personaRoutes.retrieve, { params: { persona_id: 'persona_1' } }); // { method: 'personas.retrieve', args: ["'persona_1'"] }
 */
export function sdkCall(route: RouteDefinition, example: AnyRouteExample): SdkCall {
  const exception = EXCEPTIONS[route.operationId]?.(route, example) ?? {};
  return {
    method: exception.method ?? route.operationId,
    args: exception.args ?? defaultArgs(route, example),
    ...(exception.imports ? { imports: exception.imports } : {}),
  };
}
