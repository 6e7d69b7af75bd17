import { SipClient } from 'livekit-server-sdk';
import { afterAll, beforeAll } from 'vitest';
import { DEVELOPMENT_API_SECRET } from '../../../src/server/engines/media/media-service.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/**
 * The platform with its SIP endpoint on a free port (`sip.port: 0`), listening for `livekit-server-sdk`'s SipClient,
 * for a `describe` block: started in `beforeAll`, closed in `afterAll`.
 */
export function usePhoneServer(): { readonly test: TestServer; readonly sip: SipClient } {
  let test: TestServer | undefined;
  let sip: SipClient | undefined;
  beforeAll(async () => {
    test = await startTestServer('sqlite', { config: { sip: { port: 0 } } });
    const url = await test.server.listen(0, '127.0.0.1');
    sip = new SipClient(url, test.server.services.media.apiKey, DEVELOPMENT_API_SECRET);
  });
  afterAll(async () => {
    await test?.close();
  });
  return {
    get test() {
      if (!test) throw new Error('the phone server has not started yet');
      return test;
    },
    get sip() {
      if (!sip) throw new Error('the phone server has not started yet');
      return sip;
    },
  };
}
