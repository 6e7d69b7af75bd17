import { SIPMediaEncryption, SIPTransport } from '@livekit/protocol';
import { SipCallError, SipClient } from 'livekit-server-sdk';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_IDENTITY, SIP_CALL_STATUS_ATTRIBUTE } from '../../src/contract/wire.js';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { AUDIBLE_RMS, rms } from '../../src/testing/agent-harness.js';
import { eventually, nextAudioTrack } from '../../src/testing/media-test-support.js';
import { concatSamples, dominantFrequency, sineTone } from '../../src/testing/tone-analysis.js';
import type { AudioFrame } from '../../src/server/engines/media/audio/audio-frame.js';
import { failureOf } from '../support/failure-of.js';
import { humanClient } from '../support/human-clients.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { Baresip } from './support/baresip.js';
import { requireBaresip } from './support/sip-tools.js';
import { requireOpenssl, selfSignedCertificate } from './support/tls-certificate.js';

const ready = requireBaresip() && requireOpenssl();

/**
 * The first 1 s window of `frames` (within `seconds` of audio) where a candidate tone is heard, not silence (on
 * silence the first candidate would win): its level and its lead over the other candidates.
 */
async function toneWithin(frames: AsyncIterable<AudioFrame>, seconds: number): Promise<ReturnType<typeof dominantFrequency> | undefined> {
  let window: Int16Array[] = [];
  let windowSamples = 0;
  let total = 0;
  for await (const frame of frames) {
    window.push(frame.samples);
    windowSamples += frame.samples.length / frame.channels;
    if (windowSamples < frame.sampleRate) continue;
    total += 1;
    const heard = dominantFrequency(concatSamples(window), frame.sampleRate, [PHONE_TONE_HZ, 700, 1000, 1500]);
    if (heard.rms > 0.03 && heard.dominance > 10) return heard;
    if (total >= seconds) return undefined;
    window = [];
    windowSamples = 0;
  }
  return undefined;
}
const CALLEE = '+15550124';
const PHONE_TONE_HZ = 440;

/**
 * An outbound call over TLS with SRTP required, as a user sets it up: the server's TLS listener and trusted CA come
 * from its `sip.tls*` settings (PALAVER_SIP_TLS_*), the outbound trunk says transport TLS and media encryption
 * required (livekit-server-sdk's SipClient), and baresip answers over TLS with SRTP mandatory. The agent's greeting
 * is heard at the phone and the phone's tone in the room, both through SRTP.
 */
describe.skipIf(!ready)('an outbound call over TLS with SRTP required', () => {
  let test: TestServer;
  let sip: SipClient;
  const certificate = ready ? selfSignedCertificate() : undefined;

  beforeAll(async () => {
    test = await startTestServer('sqlite', {
      config: { sip: { port: 0, tlsPort: 0, tlsCert: certificate!.certFile, tlsKey: certificate!.keyFile, tlsCa: certificate!.certFile } },
    });
    const url = await test.server.listen(0, '127.0.0.1');
    sip = new SipClient(url, test.server.services.media.apiKey, DEVELOPMENT_API_SECRET);
  });

  afterAll(async () => {
    await test?.close();
  });

  it('dials the phone over TLS, offers RTP/SAVP, and the greeting and the phone are heard through SRTP', async () => {
    const telephony = test.server.services.telephony!;
    expect(telephony.tlsPort).toBeGreaterThan(0);
    const phone = await Baresip.start({
      // Quiet while the agent greets (a tone would be heard as the callee talking), then a tone.
      microphone: Int16Array.from([...new Int16Array(8000 * 8), ...sineTone(PHONE_TONE_HZ, 8000, 20_000, 0.2)]),
      autoAnswer: true,
      number: CALLEE,
      tls: { caFile: certificate!.certFile, certificate: certificate!.pemFile },
      mediaenc: 'srtp-mand',
    });
    try {
      // baresip listens for TLS one port above its UDP/TCP port.
      const trunk = await sip.createSipOutboundTrunk('secure', `127.0.0.1:${phone.sipPort + 1}`, ['+15550199'], {
        transport: SIPTransport.SIP_TRANSPORT_TLS,
        mediaEncryption: SIPMediaEncryption.SIP_MEDIA_ENCRYPT_REQUIRE,
      });
      const callee = await humanClient(test, 'secure-callee');
      const { session } = await callee.realtime.start({
        config: { general: {}, input: {}, output: { answer_message: 'Hello, this is Palaver calling you back.' }, generative: { llm: 'builtin-offline' } },
      });
      const watcher = await test.server.services.media.transport.join({ room: session.id, identity: 'watcher', hidden: true });
      await eventually(() => expect(watcher.participants().some((participant) => participant.identity === AGENT_IDENTITY)).toBe(true), 20_000);
      const agentStates: string[] = [];
      watcher.on(
        'participantUpdated',
        (participant) => participant.identity === AGENT_IDENTITY && agentStates.push(participant.attributes['lk.agent.state'] ?? ''),
      );

      await sip.createSipParticipant(trunk.sipTrunkId, CALLEE, session.id, { participantIdentity: 'secure-callee', waitUntilAnswered: true });
      await phone.waitForEvent('CALL_ESTABLISHED');
      const [call] = telephony.calls();
      expect(call?.dialog.peer.protocol).toBe('tls');
      expect(call?.rtp.negotiated).toMatchObject({ protocol: 'RTP/SAVP', crypto: { tag: 1 } });
      expect(call?.rtp.encrypted).toBe(true);
      await eventually(() =>
        expect(watcher.participants().find((participant) => participant.identity === 'secure-callee')?.attributes[SIP_CALL_STATUS_ATTRIBUTE]).toBe('active'),
      );
      // The greeting was said (speaking) and is over (listening again).
      await eventually(() => {
        expect(agentStates).toContain('speaking');
        expect(agentStates.at(-1)).toBe('listening');
      }, 20_000);
      const track = await nextAudioTrack(watcher, 'secure-callee');
      // The tone starts 8 s into the call: 1 s windows of what the room hears until it is there.
      expect(await toneWithin(track.frames(), 25)).toMatchObject({ frequency: PHONE_TONE_HZ });
      expect(call?.rtp.stats.unauthenticated).toBe(0);
      await callee.realtime.end(session.id);
      await phone.waitForEvent('CALL_CLOSED');
      await watcher.leave();
      await sip.deleteSipTrunk(trunk.sipTrunkId);
    } finally {
      await phone.stop();
    }
    // What the phone recorded holds the greeting (baresip decrypted it).
    const heard = phone.heard();
    let loudest = 0;
    for (let offset = 0; offset + 1600 <= heard.pcm.length; offset += 1600) loudest = Math.max(loudest, rms(heard.pcm.subarray(offset, offset + 1600)));
    expect(loudest).toBeGreaterThan(AUDIBLE_RMS);
    await eventually(() => expect(telephony.activeCalls).toBe(0));
  }, 90_000);

  it('a TLS trunk whose certificate is not trusted fails the call at once with 503, naming why', async () => {
    const telephony = test.server.services.telephony!;
    // A provider with a certificate nobody configured as trusted (not the CA the server was given).
    const stranger = selfSignedCertificate();
    const provider = createTlsServer({ cert: stranger.cert, key: stranger.key }, (socket) => socket.destroy());
    provider.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    try {
      const port = (provider.address() as { port: number }).port;
      const trunk = await sip.createSipOutboundTrunk('untrusted', `127.0.0.1:${port}`, ['+15550199'], { transport: SIPTransport.SIP_TRANSPORT_TLS });
      const failure = await failureOf(
        sip.createSipParticipant(trunk.sipTrunkId, CALLEE, 'room-untrusted', { participantIdentity: 'untrusted-callee', waitUntilAnswered: true }),
      );
      expect(failure).toBeInstanceOf(SipCallError);
      // 503 (a transport error), not the 408 of a transaction that waited 32 s for nothing.
      expect((failure as SipCallError).sipStatusCode).toBe(503);
      expect((failure as SipCallError).message).toMatch(/certificate/i);
      await eventually(() => expect(telephony.activeCalls).toBe(0));
      await sip.deleteSipTrunk(trunk.sipTrunkId);
    } finally {
      provider.close();
    }
  });
});
