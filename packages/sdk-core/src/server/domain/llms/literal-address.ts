import { BadRequestError } from '../../../errors/api-error.js';
import { allowSettingOf, targetRefusal, type OutboundPolicy } from '../../kernel/outbound/index.js';

/**
 * Checks, when an LLM or tool is created or updated, a URL the platform will later send requests to:
 * refuses it (400 naming `field`) when it is not http(s), carries credentials (`user@host`), or its host is `localhost` or a literal loopback, private, link-local
 * or unroutable address that `policy` does not allow (link-local and unroutable: never). The table and the rules
 * are the outbound guard's (`kernel/outbound`), which also judges every resolved address where the connection is
 * made; this early check gives the developer the error at definition time rather than at first use. Host names
 * are not resolved here (DNS may differ between definition and use).
 *
 * @example
 * assertLiteralAddressAllowed('post_url', 'http://169.254.169.254/latest', { allowLoopback: true, allowPrivateNetworks: false }); // throws
 */
export function assertLiteralAddressAllowed(field: string, url: string, policy: OutboundPolicy): void {
  const refused = targetRefusal(url, policy);
  if (!refused) return;
  const hint =
    refused.reason === 'credentials'
      ? ' (an Authorization header can reference a secret)'
      : allowSettingOf(refused, { loopback: 'PALAVER_LLM_ALLOW_LOOPBACK', private: 'PALAVER_LLM_ALLOW_PRIVATE' });
  throw new BadRequestError(`${field}: ${refused.message}${hint}`, { cause: refused });
}
