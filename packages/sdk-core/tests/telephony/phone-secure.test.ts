import { once } from 'node:events';
import { connect as connectTls } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRoomConnection } from '../../src/server/engines/media/agent-transport.js';
import { SipEndpoint } from '../../src/server/engines/telephony/index.js';
import { startTestEndpoint } from './support/test-endpoint.js';
import type { SipMediaEncryption } from '../../src/server/kernel/ports/sip-directory.js';
import { analyseFrames, eventually, nextAudioTrack, playTone } from '../../src/testing/media-test-support.js';
import { dominantFrequency, sineTone } from '../../src/testing/tone-analysis.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { Baresip } from './support/baresip.js';
import { inviteText, rawSip, RawSipPeer, requireBaresip, statusOf } from './support/sip-tools.js';
import { OPEN_NUMBER, testDirectory } from './support/test-directory.js';
import { requireOpenssl, selfSignedCertificate, type TestCertificate } from './support/tls-certificate.js';

const hasTools = requireBaresip() && requireOpenssl();
const CALLER_TONE_HZ = 440;
const ROOM_TONE_HZ = 1000;
const CANDIDATES = [CALLER_TONE_HZ, ROOM_TONE_HZ, 700, 1500];
/** Numbers whose trunk sets media encryption (LiveKit's `media_encryption`). */
const SRTP_REQUIRED_NUMBER = '+15550010';
const SRTP_ALLOWED_NUMBER = '+15550011';
const ENCRYPTION: Record<string, SipMediaEncryption> = { [SRTP_REQUIRED_NUMBER]: 'required', [SRTP_ALLOWED_NUMBER]: 'allowed' };

/**
 * Secure phone calls with Debian's baresip: SIP over TLS (a throwaway self-signed certificate the phone trusts), and
 * SRTP media (SDES keys in `a=crypto`) as a trunk's media encryption asks: audio is heard both ways through the
 * encryption, and a trunk that requires it refuses a plain offer with 488.
 */
describe.skipIf(!hasTools)('secure phone calls (TLS, SRTP) with baresip', () => {
  let test: TestServer;
  let endpoint: SipEndpoint;
  let certificate: TestCertificate;
  const directory = testDirectory();
  const agents: AgentRoomConnection[] = [];

  beforeAll(async () => {
    certificate = selfSignedCertificate();
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    const media = test.server.services.media;
    const find = directory.findInboundTrunk.bind(directory);
    directory.findInboundTrunk = async (call) => {
      const encryption = ENCRYPTION[call.toUser];
      if (!encryption) return find(call);
      const match = await find({ ...call, toUser: OPEN_NUMBER });
      return match?.kind === 'trunk' ? { kind: 'trunk', trunk: { ...match.trunk, mediaEncryption: encryption } } : match;
    };
    // What answers: an agent in the caller's room playing a tone.
    const dispatch = directory.dispatch.bind(directory);
    directory.dispatch = async (call, trunk) => {
      const route = (await dispatch(call, trunk))!;
      await media.transport.ensureRoom({ room: route.roomName });
      const agent = await media.transport.join({ room: route.roomName });
      agents.push(agent);
      void playTone(await agent.publishAudio(), ROOM_TONE_HZ, 15_000).catch(() => undefined);
      return route;
    };
    endpoint = await startTestEndpoint({
      tls: { port: 0, cert: certificate.cert, key: certificate.key },
      directory,
      transport: media.transport,
    });
  });

  afterAll(async () => {
    await endpoint?.close();
    await test?.close();
  });

  /** Dials `uri` from a baresip phone playing a tone, checks both tones are heard, hangs up; returns the phone's log. */
  async function callAndHear(phone: Baresip, uri: string, check: () => void): Promise<string> {
    agents.length = 0;
    try {
      phone.command('dial', uri);
      await phone.waitForEvent('CALL_ESTABLISHED');
      const agent = await eventually(() => agents[0] ?? Promise.reject(new Error('no agent yet')));
      const track = await nextAudioTrack(agent, 'sip_+15550100');
      // Heard, not silence (on silence the first candidate would win): the tone's level and its lead over the others.
      const inRoom = await analyseFrames(track.frames(), CANDIDATES, 500, 1500);
      expect(inRoom.frequency).toBe(CALLER_TONE_HZ);
      expect(inRoom.rms).toBeGreaterThan(0.05);
      expect(inRoom.dominance).toBeGreaterThan(10);
      check();
      phone.command('hangup');
      await phone.waitForEvent('CALL_CLOSED');
      await eventually(() => expect(endpoint.activeCalls).toBe(0));
    } finally {
      await phone.stop();
    }
    const { pcm, sampleRate } = phone.heard();
    const atPhone = dominantFrequency(pcm.subarray(sampleRate, sampleRate * 3), sampleRate, CANDIDATES);
    expect(atPhone.frequency).toBe(ROOM_TONE_HZ);
    expect(atPhone.rms).toBeGreaterThan(0.02);
    return phone.log;
  }

  it('takes a call over TLS: the dialog stays on TLS, audio is heard both ways', async () => {
    expect(endpoint.tlsPort).toBeGreaterThan(0);
    const phone = await Baresip.start({ microphone: sineTone(CALLER_TONE_HZ, 8000, 20_000, 0.4), tls: { caFile: certificate.certFile } });
    await callAndHear(phone, `sip:${OPEN_NUMBER}@127.0.0.1:${endpoint.tlsPort};transport=tls`, () => {
      const [call] = endpoint.calls();
      expect(call?.dialog.peer.protocol).toBe('tls');
      expect(call?.dialog.contact).toBe(`<sip:palaver@127.0.0.1:${endpoint.tlsPort};transport=tls>`);
      expect(call?.rtp.encrypted).toBe(false);
    });
  }, 60_000);

  it('a sips: INVITE over TLS gets a sips: Contact (RFC 3261 8.1.1.8)', async () => {
    // baresip 1.0 cannot dial sips: from its control socket (it makes sip:sips:...), so a raw TLS client asks.
    const socket = connectTls({ host: '127.0.0.1', port: endpoint.tlsPort, ca: certificate.cert });
    await once(socket, 'secureConnect');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const sdp = ['v=0', 'o=caller 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', 'm=audio 40004 RTP/AVP 0', 'a=rtpmap:0 PCMU/8000', ''].join(
      '\r\n',
    );
    const local = `127.0.0.1:${socket.localPort}`;
    const head = (method: string, seq: number, to: string) => [
      `${method} sips:${OPEN_NUMBER}@127.0.0.1:${endpoint.tlsPort} SIP/2.0`,
      `Via: SIP/2.0/TLS ${local};branch=z9hG4bKsips${method}${seq}`,
      'From: <sips:+15550100@127.0.0.1>;tag=sips1',
      `To: ${to}`,
      'Call-ID: sips-call',
      `CSeq: ${seq} ${method}`,
      `Contact: <sips:+15550100@${local}>`,
    ];
    try {
      socket.write(
        [...head('INVITE', 1, `<sips:${OPEN_NUMBER}@127.0.0.1>`), 'Content-Type: application/sdp', `Content-Length: ${sdp.length}`, '', sdp].join('\r\n'),
      );
      await eventually(() => expect(received).toMatch(/SIP\/2\.0 200 OK[\s\S]*\r\n\r\n/), 15_000);
      const ok = received.slice(received.indexOf('SIP/2.0 200 OK'));
      expect(/^Contact: (.*)$/m.exec(ok)?.[1]?.trim()).toBe(`<sips:palaver@127.0.0.1:${endpoint.tlsPort}>`);
      expect(/^Via: (.*)$/m.exec(ok)?.[1]).toContain(`SIP/2.0/TLS ${local}`);
      const to = /^To: (.*)$/m.exec(ok)![1]!.trim();
      socket.write([...head('ACK', 1, to), 'Content-Length: 0', '', ''].join('\r\n'));
      socket.write([...head('BYE', 2, to), 'Content-Length: 0', '', ''].join('\r\n'));
      await eventually(() => expect(endpoint.activeCalls).toBe(0));
    } finally {
      socket.destroy();
    }
  });

  it.each([
    ['srtp-mand', 'RTP/SAVP', SRTP_REQUIRED_NUMBER],
    ['srtp', 'RTP/AVP', SRTP_ALLOWED_NUMBER],
  ] as const)(
    'SRTP over TLS (baresip mediaenc=%s, %s offer): audio is decrypted and heard both ways',
    async (mediaenc, protocol, number) => {
      const phone = await Baresip.start({ microphone: sineTone(CALLER_TONE_HZ, 8000, 20_000, 0.4), tls: { caFile: certificate.certFile }, mediaenc });
      await callAndHear(phone, `sip:${number}@127.0.0.1:${endpoint.tlsPort};transport=tls`, () => {
        const [call] = endpoint.calls();
        expect(call?.rtp.negotiated).toMatchObject({ protocol, crypto: { tag: expect.any(Number) } });
        expect(call?.rtp.encrypted).toBe(true);
        expect(call?.rtp.stats.unauthenticated).toBe(0);
      });
    },
    60_000,
  );

  it('a trunk that requires SRTP refuses a plain offer with 488; one with encryption disabled refuses RTP/SAVP with 488', async () => {
    agents.length = 0;
    const plain = await rawSip(endpoint.port, inviteText({ to: SRTP_REQUIRED_NUMBER, callId: 'plain-to-required', branch: 'z9hG4bKplain1' }));
    expect(statusOf(plain.at(-1))).toBe(488);
    expect(plain.at(-1)).toMatch(/Media encryption is required/);
    const savp = [
      'v=0',
      'o=caller 1 1 IN IP4 127.0.0.1',
      's=-',
      'c=IN IP4 127.0.0.1',
      't=0 0',
      'm=audio 40000 RTP/SAVP 0',
      'a=rtpmap:0 PCMU/8000',
      `a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${Buffer.alloc(30, 7).toString('base64')}`,
      '',
    ].join('\r\n');
    const refused = await rawSip(endpoint.port, inviteText({ to: OPEN_NUMBER, callId: 'savp-to-disabled', branch: 'z9hG4bKsavp1', sdp: savp }));
    expect(statusOf(refused.at(-1))).toBe(488);
    expect(refused.at(-1)).toMatch(/media encryption is disabled/);
    expect(endpoint.activeCalls).toBe(0);
    expect(agents).toHaveLength(0);
  });

  it('a re-INVITE (hold) in an SRTP call is answered with the same key; one offering plain RTP gets 488', async () => {
    agents.length = 0;
    const peer = await RawSipPeer.open();
    const key = Buffer.alloc(30, 9).toString('base64');
    const sdp = (direction: string) =>
      [
        'v=0',
        'o=caller 1 1 IN IP4 127.0.0.1',
        's=-',
        'c=IN IP4 127.0.0.1',
        't=0 0',
        'm=audio 40002 RTP/SAVP 0',
        'a=rtpmap:0 PCMU/8000',
        `a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${key}`,
        `a=${direction}`,
        '',
      ].join('\r\n');
    // A non-2xx's ACK belongs to its INVITE's transaction: `branchOf` names that INVITE.
    const inDialog = (method: string, seq: number, toTag: string, body = '', branchOf = method) =>
      [
        `${method} sip:palaver@127.0.0.1:${endpoint.port} SIP/2.0`,
        `Via: SIP/2.0/UDP 127.0.0.1:{port};branch=z9hG4bK${branchOf}${seq}srtp;rport`,
        'From: <sip:+15550100@127.0.0.1>;tag=caller1',
        `To: <sip:${SRTP_REQUIRED_NUMBER}@127.0.0.1>;tag=${toTag}`,
        'Call-ID: srtp-hold',
        `CSeq: ${seq} ${method}`,
        'Contact: <sip:+15550100@127.0.0.1:{port}>',
        ...(body ? ['Content-Type: application/sdp'] : []),
        `Content-Length: ${Buffer.byteLength(body)}`,
        '',
        body,
      ].join('\r\n');
    try {
      peer.send(endpoint.port, inviteText({ to: SRTP_REQUIRED_NUMBER, callId: 'srtp-hold', branch: 'z9hG4bKsrtphold', sdp: sdp('sendrecv') }));
      const answered = await peer.waitFor((message) => statusOf(message) === 200 && message.includes('CSeq: 1 INVITE'), 15_000);
      expect(answered).toMatch(/m=audio \d+ RTP\/SAVP 0/);
      const ours = /a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:(\S+)/.exec(answered)?.[1];
      expect(ours).toBeDefined();
      const toTag = /^To: .*;tag=([^;\s]+)/m.exec(answered)![1]!;
      peer.send(endpoint.port, inDialog('ACK', 1, toTag));
      peer.send(endpoint.port, inDialog('INVITE', 2, toTag, sdp('sendonly')));
      const held = await peer.waitFor((message) => statusOf(message) === 200 && message.includes('CSeq: 2 INVITE'));
      expect(held).toMatch(/m=audio \d+ RTP\/SAVP 0/);
      expect(held).toContain(`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${ours}`);
      expect(held).toMatch(/a=recvonly/);
      peer.send(endpoint.port, inDialog('ACK', 2, toTag));
      expect(endpoint.calls()[0]?.rtp.encrypted).toBe(true);
      // A re-INVITE cannot take an encrypted call back to plain RTP.
      const plainOffer = sdp('sendrecv')
        .replace('RTP/SAVP', 'RTP/AVP')
        .replace(/a=crypto.*\r\n/, '');
      peer.send(endpoint.port, inDialog('INVITE', 3, toTag, plainOffer));
      const refused = await peer.waitFor((message) => statusOf(message) >= 300 && message.includes('CSeq: 3 INVITE'));
      expect(statusOf(refused)).toBe(488);
      peer.send(endpoint.port, inDialog('ACK', 3, toTag, '', 'INVITE'));
      expect(endpoint.calls()[0]?.rtp.encrypted).toBe(true);
      peer.send(endpoint.port, inDialog('BYE', 4, toTag));
      await peer.waitFor((message) => statusOf(message) === 200 && message.includes('CSeq: 4 BYE'));
      await eventually(() => expect(endpoint.activeCalls).toBe(0));
    } finally {
      peer.close();
    }
  });
});
