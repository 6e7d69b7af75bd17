import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/kernel/config.js';

describe('SIP over TLS settings', () => {
  it('are off by default, read from PALAVER_SIP_TLS_*, and a TLS port without a certificate and key is refused by name', () => {
    expect(loadConfig({ PALAVER_SIP_PORT: '5060' }).sip.tlsPort).toBeUndefined();
    const config = loadConfig({
      PALAVER_SIP_PORT: '5060',
      PALAVER_SIP_TLS_PORT: '5061',
      PALAVER_SIP_TLS_CERT: '/etc/sip/cert.pem',
      PALAVER_SIP_TLS_KEY: '/etc/sip/key.pem',
    });
    expect(config.sip).toMatchObject({ tlsPort: 5061, tlsCert: '/etc/sip/cert.pem', tlsKey: '/etc/sip/key.pem' });
    expect(() => loadConfig({ PALAVER_SIP_PORT: '5060', PALAVER_SIP_TLS_PORT: '5061' })).toThrow(
      /PALAVER_SIP_TLS_PORT \(sip\.tlsPort\): PALAVER_SIP_TLS_PORT needs PALAVER_SIP_TLS_CERT and PALAVER_SIP_TLS_KEY/,
    );
    expect(() => loadConfig({ PALAVER_SIP_TLS_PORT: 'tls' })).toThrow(/PALAVER_SIP_TLS_PORT/);
  });
});
