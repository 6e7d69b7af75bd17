import { isIP } from 'node:net';
import { addressKind } from './address-ranges.js';
import { OutboundRefusedError } from './outbound-refused.js';

/**
 * Which non-public destinations outbound requests may reach. Public addresses always may; link-local (cloud
 * metadata) and unroutable ones never do.
 */
export interface OutboundPolicy {
  /** 127.0.0.0/8 and ::1 (development and tests run their fake upstreams and receivers there). */
  readonly allowLoopback: boolean;
  /** Private networks: 10/8, 172.16/12, 192.168/16, CGNAT 100.64/10, fc00::/7 ... */
  readonly allowPrivateNetworks: boolean;
}

/** The refusal of a connection from `host` to `address`, or undefined when the policy allows it. */
export function addressRefusal(host: string, address: string, policy: OutboundPolicy): OutboundRefusedError | undefined {
  const kind = addressKind(address);
  if (kind === 'public' || (kind === 'loopback' && policy.allowLoopback) || (kind === 'private' && policy.allowPrivateNetworks)) return undefined;
  return OutboundRefusedError.forAddress(host, address, kind, kind === 'loopback' || kind === 'private');
}

/** A URL's host as connections see it: lower case, an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** The refusal of a URL that is not an absolute http(s) URL or carries credentials; undefined when it may be used. */
export function urlRefusal(url: string | URL): OutboundRefusedError | undefined {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch (error) {
    return new OutboundRefusedError('url', `'${String(url)}' is not an absolute URL`, undefined, { cause: error });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return new OutboundRefusedError('url', `must be an http(s) URL, not ${parsed.protocol}`);
  // They would travel to whatever host follows the '@', which also hides the real destination from a reader
  // (`http://api.example.com@10.0.0.1/`).
  if (parsed.username || parsed.password) {
    return new OutboundRefusedError('credentials', `credentials in the URL ('user@host') are not allowed; send them in a header`);
  }
  return undefined;
}

/**
 * What can be judged of a URL without resolving its host, for a URL saved now and called later (an LLM's
 * `post_url`, a tool's or a webhook's URL): {@link urlRefusal}, then a `localhost` name or a literal address the
 * policy does not allow. Host names are judged when a connection resolves them (DNS may answer differently then).
 *
 * @example
 * targetRefusal('http://169.254.169.254/latest', { allowLoopback: true, allowPrivateNetworks: true })?.message; // 'resolves to a link-local address ...'
 */
export function targetRefusal(url: string, policy: OutboundPolicy): OutboundRefusedError | undefined {
  const refused = urlRefusal(url);
  if (refused) return refused;
  const host = hostOf(new URL(url));
  if (/(^|\.)localhost\.?$/.test(host)) return policy.allowLoopback ? undefined : OutboundRefusedError.forAddress(host, host, 'loopback', true);
  return isIP(host) ? addressRefusal(host, host, policy) : undefined;
}
