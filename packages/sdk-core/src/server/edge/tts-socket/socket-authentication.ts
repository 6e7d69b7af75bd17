import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../../errors/api-error.js';
import { authenticate } from '../http/authenticate.js';
import { readerOfIncoming, type HeaderReader } from '../http/node-headers.js';
import type { Principal } from '../../kernel/principal.js';
import type { Services } from '../../domain/services.js';

/** Why a socket was refused: a websocket close code (4000 + the HTTP status) and a reason. */
export interface SocketRefusal {
  code: number;
  reason: string;
}

/** Close reasons are limited to 123 bytes by the websocket protocol. */
function closeReason(text: string): string {
  const encoder = new TextEncoder();
  let reason = text;
  while (encoder.encode(reason).length > 123) reason = reason.slice(0, -2) + '…';
  return reason;
}

/**
 * Authenticates a websocket upgrade like an HTTP call (`x-api-key`, `Authorization: Bearer`, `x-human-id`),
 * plus the query parameters browsers must use because they cannot set headers: `api_key=<key>` or
 * `token=<usage token>`, or (with `keySubprotocol`) the key or token as a websocket subprotocol after that prefix.
 * Headers win when both are present.
 *
 * @example
 * const result = await authenticateUpgrade(request, services);
 * if ('code' in result) socket.close(result.code, result.reason);
 */
export async function authenticateUpgrade(
  request: IncomingMessage,
  services: Services,
  options: { keySubprotocol?: string; ephemeralPrefix?: string } = {},
): Promise<Principal | SocketRefusal> {
  const incoming = readerOfIncoming(request);
  // An ephemeral key (`ek_` + a usage token, OpenAI's browser credential) is the usage token after its prefix.
  const ephemeral = options.ephemeralPrefix ? `Bearer ${options.ephemeralPrefix}` : undefined;
  const header: HeaderReader = (name) => {
    const value = incoming(name);
    return ephemeral && name === 'authorization' && value?.startsWith(ephemeral) ? `Bearer ${value.slice(ephemeral.length)}` : value;
  };
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
  const apiKey = query.get('api_key');
  const token = query.get('token');
  const withoutHeaders = header('x-api-key') === undefined && header('authorization') === undefined;
  const fromQuery = new Map<string, string>();
  const prefix = options.keySubprotocol;
  // OpenAI's browser clients send the key as a subprotocol (`openai-insecure-api-key.<key>`): an API key or usage token.
  const fromProtocol = prefix
    ? (header('sec-websocket-protocol') ?? '')
        .split(',')
        .map((protocol) => protocol.trim())
        .find((protocol) => protocol.startsWith(prefix))
        ?.slice(prefix.length)
    : undefined;
  if (withoutHeaders && apiKey) fromQuery.set('x-api-key', apiKey);
  else if (withoutHeaders && token) fromQuery.set('authorization', `Bearer ${token}`);
  else if (withoutHeaders && fromProtocol) {
    const key = options.ephemeralPrefix && fromProtocol.startsWith(options.ephemeralPrefix) ? fromProtocol.slice(options.ephemeralPrefix.length) : fromProtocol;
    fromQuery.set('authorization', `Bearer ${key}`);
  }
  const credentials: HeaderReader = (name) => fromQuery.get(name) ?? header(name);
  try {
    return await authenticate(credentials, 'K/B', services, { humanHeader: true });
  } catch (error) {
    if (ApiError.isInstance(error)) return { code: 4000 + error.status, reason: closeReason(`${error.type}: ${error.message}`) };
    throw error;
  }
}
