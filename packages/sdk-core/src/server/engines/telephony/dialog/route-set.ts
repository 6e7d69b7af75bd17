import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parseNameAddress, parseUri } from '../message/sip-address.js';
import type { SipRequest, SipResponse } from '../message/sip-message.js';
import type { SipPeer } from '../transport/sip-transport.js';

/** The proxies a dialog's requests go through (RFC 3261 12.1.1): the INVITE's Record-Route, in order (we answer it). */
export function routeSetOfRequest(request: SipRequest): string[] {
  return request.headers.getAll('record-route');
}

/** The route set when we sent the INVITE (RFC 3261 12.1.2): the 2xx's Record-Route, reversed. */
export function routeSetOfResponse(response: SipResponse): string[] {
  return response.headers.getAll('record-route').reverse();
}

/** The Record-Route entries a dialog-creating response copies from its request (RFC 3261 12.1.1). */
export function recordRouteHeaders(request: SipRequest): Array<[string, string]> {
  return routeSetOfRequest(request).map((value) => ['Record-Route', value]);
}

/** Whether the first route is a loose router (`;lr`, RFC 3261 16.12); a strict router takes the Request-URI's place. */
export function isLooseRoute(route: string): boolean {
  return 'lr' in parseUri(parseNameAddress(route).uri).params;
}

/**
 * Where a dialog's requests are sent: the first route's host and port (its `transport` parameter, else the call's
 * transport), or `fallback` (where the INVITE came from or went to) when there is no route set.
 */
export async function nextHop(routeSet: readonly string[], fallback: SipPeer): Promise<SipPeer> {
  const first = routeSet[0];
  if (!first) return fallback;
  const uri = parseUri(parseNameAddress(first).uri);
  const transport = uri.params['transport']?.toLowerCase();
  const protocol = transport === 'tcp' || transport === 'udp' ? transport : fallback.protocol;
  const address = isIP(uri.host) ? uri.host : (await lookup(uri.host)).address;
  return { protocol, address, port: uri.port ?? 5060 };
}
