import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../kernel/config.js';
import { announcedCandidate, announcedSdp } from './ice-network.js';
import { peerConfiguration } from './peer-configuration.js';

describe('ICE network settings (node IP, bind address, port range)', () => {
  it('announces the node IP in host candidates only, ports unchanged', () => {
    const host = 'candidate:1 1 udp 2130706431 127.0.0.1 40001 typ host generation 0 ufrag ab';
    expect(announcedCandidate(host, '127.0.0.2')).toBe('candidate:1 1 udp 2130706431 127.0.0.2 40001 typ host generation 0 ufrag ab');
    const reflexive = 'candidate:2 1 udp 1694498815 203.0.113.9 40001 typ srflx raddr 127.0.0.1 rport 40001';
    expect(announcedCandidate(reflexive, '127.0.0.2')).toBe(reflexive);
    expect(announcedCandidate(host, undefined)).toBe(host);
    const sdp = `v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=candidate:1 1 udp 2130706431 192.0.2.2 40001 typ host\r\na=mid:0\r\n`;
    expect(announcedSdp(sdp, '198.51.100.7')).toBe(sdp.replace('192.0.2.2', '198.51.100.7'));
  });

  it('binds werift to the address and port range, and probes no signalled candidate behind a node IP', () => {
    const configured = peerConfiguration({ nodeIp: '127.0.0.2', bindAddress: '127.0.0.1', portRange: [40_000, 40_015] });
    expect(configured.iceInterfaceAddresses).toEqual({ udp4: '127.0.0.1' });
    expect(configured.icePortRange).toEqual([40_000, 40_015]);
    expect(configured.iceFilterCandidatePair?.({} as never)).toBe(false);
    expect(peerConfiguration().iceFilterCandidatePair).toBeUndefined();
  });

  it('reads the operator settings from the environment names and refuses bad ones with a message', () => {
    const config = loadConfig({ PALAVER_MEDIA_NODE_IP: '198.51.100.7', PALAVER_MEDIA_RTC_BIND_ADDRESS: '10.0.0.5', PALAVER_MEDIA_RTC_PORTS: '50000-50100' });
    expect(config.livekit).toMatchObject({ nodeIp: '198.51.100.7', rtcBindAddress: '10.0.0.5', rtcPorts: [50_000, 50_100] });
    expect(() => loadConfig({ PALAVER_MEDIA_RTC_PORTS: '50100-50000' })).toThrow(/PALAVER_MEDIA_RTC_PORTS.*first below the last/);
    expect(() => loadConfig({ PALAVER_MEDIA_RTC_PORTS: '50000' })).toThrow(/PALAVER_MEDIA_RTC_PORTS.*first-last/);
    expect(() => loadConfig({ PALAVER_MEDIA_NODE_IP: 'not-an-ip' })).toThrow(/PALAVER_MEDIA_NODE_IP/);
  });
});
