import { SipEndpoint, type SipEndpointOptions } from '../../../src/server/engines/telephony/index.js';
import { createLogger } from '../../../src/server/kernel/logger.js';

/** A started SIP endpoint on 127.0.0.1, a free UDP/TCP port and a silent logger; `options` add to or replace these. */
export async function startTestEndpoint(options: Pick<SipEndpointOptions, 'directory' | 'transport'> & Partial<SipEndpointOptions>): Promise<SipEndpoint> {
  const endpoint = new SipEndpoint({ host: '127.0.0.1', port: 0, logger: createLogger('silent'), ...options });
  await endpoint.start();
  return endpoint;
}
