import { BlockList, isIP } from 'node:net';
import { BadRequestError } from '../../../errors/api-error.js';
import { addressClass, CREDENTIALS_IN_URL, type UpstreamAddressPolicy } from '../../engines/llm/upstream-address.js';

/** Link-local (cloud metadata services such as 169.254.169.254): refused whatever the configuration. */
const metadata = new BlockList();
metadata.addSubnet('169.254.0.0', 16, 'ipv4');

/**
 * Checks, when an LLM or tool is created or updated, a URL the platform will later send requests to:
 * refuses it (400 naming `field`) when it is not http(s), carries credentials (`user@host`), or its host is `localhost` or a literal loopback, private or link-local
 * address that `policy` does not allow. Metadata addresses (169.254.0.0/16) are always refused. The
 * classification is the LLM gateway's (`upstream-address.ts`), which also checks resolved names per
 * request; this early check gives the developer the error at definition time rather than at first use.
 * Host names are not resolved here (DNS may differ between definition and use).
 *
 * @example
 * assertLiteralAddressAllowed('post_url', 'http://169.254.169.254/latest', { allowLoopback: true, allowPrivateNetworks: false }); // throws
 */
export function assertLiteralAddressAllowed(field: string, url: string, policy: UpstreamAddressPolicy): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new BadRequestError(`${field}: '${url}' is not an absolute URL`, { cause: error });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new BadRequestError(`${field}: must be an http(s) URL, not ${parsed.protocol}`);
  if (parsed.username || parsed.password) throw new BadRequestError(CREDENTIALS_IN_URL(field));
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (/(^|\.)localhost\.?$/.test(host)) {
    if (!policy.allowLoopback) throw new BadRequestError(`${field}: loopback hosts (localhost) are not allowed on this server`);
    return;
  }
  const family = isIP(host);
  if (family === 0) return;
  if (metadata.check(host, family === 6 ? 'ipv6' : 'ipv4')) {
    throw new BadRequestError(`${field}: link-local addresses (169.254.0.0/16, cloud metadata) are never allowed`);
  }
  const kind = addressClass(host);
  if ((kind === 'loopback' && !policy.allowLoopback) || (kind === 'private' && !policy.allowPrivateNetworks)) {
    throw new BadRequestError(`${field}: ${kind} addresses are not allowed on this server`);
  }
}
