import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../../errors/api-error.js';
import { authenticate } from '../http/authenticate.js';
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
 * `token=<usage token>`. Headers win when both are present.
 *
 * @example
 * const result = await authenticateUpgrade(request, services);
 * if ('code' in result) socket.close(result.code, result.reason);
 */
export async function authenticateUpgrade(request: IncomingMessage, services: Services): Promise<Principal | SocketRefusal> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
  const apiKey = query.get('api_key');
  const token = query.get('token');
  if (!headers.has('x-api-key') && !headers.has('authorization')) {
    if (apiKey) headers.set('x-api-key', apiKey);
    else if (token) headers.set('authorization', `Bearer ${token}`);
  }
  try {
    return await authenticate(headers, 'K/B', services, { humanHeader: true });
  } catch (error) {
    if (ApiError.isInstance(error)) return { code: 4000 + error.status, reason: closeReason(`${error.type}: ${error.message}`) };
    throw error;
  }
}
