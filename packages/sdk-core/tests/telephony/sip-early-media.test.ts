import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIP_CALL_STATUS_ATTRIBUTE } from '../../src/contract/wire.js';
import { SipEndpoint } from '../../src/server/engines/telephony/index.js';
import { startTestEndpoint } from './support/test-endpoint.js';
import type { OutboundCallRequest } from '../../src/server/kernel/ports/sip-calls.js';
import { analyseFrames, eventually, nextAudioTrack } from '../../src/testing/media-test-support.js';
import { sineTone } from '../../src/testing/tone-analysis.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { ForwardingProxy, headerValues } from './support/forwarding-proxy.js';
import { freeUdpPort, mulawWav, requireSipp, runSippServer, scenario } from './support/sip-tools.js';
import { testDirectory } from './support/test-directory.js';

const hasSipp = requireSipp();
const EARLY_TONE_HZ = 440;

function outboundCall(port: number, roomName: string): OutboundCallRequest {
  return {
    trunk: {
      trunkId: 'ST_out',
      project: 'prj_test',
      address: `127.0.0.1:${port}`,
      transport: 'udp',
      number: '+15550199',
      authUsername: '',
      authPassword: '',
      headers: {},
    },
    callTo: '+15550123',
    roomName,
    participantIdentity: 'callee',
    participantName: 'Callee',
    participantMetadata: '',
    participantAttributes: {},
    dtmf: '',
    waitUntilAnswered: false,
    headers: {},
    ringingTimeoutMs: 30_000,
    maxCallDurationMs: 0,
    human: 'callee',
  };
}

/**
 * An outbound call whose callee's network plays early media (a 183 with SDP, then RTP before the 200 OK), with SIPp as
 * that network behind a Record-Routing proxy: the room hears the early audio while the callee's `sip.callStatus` is
 * still `ringing`, the call goes `active` on the 200 OK, and the ACK and BYE follow the route set.
 */
describe.skipIf(!hasSipp)('outbound early media (SIPp callee)', () => {
  let test: TestServer;
  let endpoint: SipEndpoint;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    endpoint = await startTestEndpoint({
      directory: testDirectory(),
      transport: test.server.services.media.transport,
    });
  });

  afterAll(async () => {
    await endpoint?.close();
    await test?.close();
  });

  it("plays a 183's early media into the room while ringing, then answers on the 200 OK through the route set", async () => {
    const work = mkdtempSync(join(tmpdir(), 'early-media-'));
    writeFileSync(join(work, 'early-audio.wav'), mulawWav(sineTone(EARLY_TONE_HZ, 8000, 4000, 0.4)));
    const proxy = await ForwardingProxy.open();
    const port = await freeUdpPort();
    const callee = runSippServer(port, ['-sf', scenario('early-media-callee.xml'), '-m', '1', '-key', 'proxy_port', String(proxy.port)], 60_000, work);
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const transport = test.server.services.media.transport;
      await transport.ensureRoom({ room: 'room-early' });
      const watcher = await transport.join({ room: 'room-early', identity: 'watcher', hidden: true });
      const statuses: string[] = [];
      const status = () => watcher.participants().find((participant) => participant.identity === 'callee')?.attributes[SIP_CALL_STATUS_ATTRIBUTE];
      watcher.on('participantJoined', (participant) => participant.kind === 'sip' && statuses.push(participant.attributes[SIP_CALL_STATUS_ATTRIBUTE] ?? ''));
      watcher.on('participantUpdated', (participant) => participant.kind === 'sip' && statuses.push(participant.attributes[SIP_CALL_STATUS_ATTRIBUTE] ?? ''));

      await endpoint.placeCall(outboundCall(port, 'room-early'));
      await eventually(() => expect(status()).toBe('ringing'));
      const track = await nextAudioTrack(watcher, 'callee');
      const heard = await analyseFrames(track.frames(), [EARLY_TONE_HZ, 1000, 700], 200, 500);
      // Heard before the answer: the early media's tone, while the callee still rings.
      expect(heard.frequency).toBe(EARLY_TONE_HZ);
      expect(status()).toBe('ringing');
      await eventually(() => expect(status()).toBe('active'), 20_000);
      expect(statuses).toEqual(['dialing', 'ringing', 'active']);

      await transport.deleteRoom('room-early');
      const result = await callee;
      expect(result.code, result.output).toBe(0);
      expect(proxy.received('ACK')).toHaveLength(1);
      const [bye] = proxy.received('BYE');
      expect(headerValues(bye!, 'Route')).toEqual([`<sip:127.0.0.1:${proxy.port};lr>`]);
      await eventually(() => expect(endpoint.activeCalls).toBe(0));
      await watcher.leave();
    } finally {
      proxy.close();
      await callee;
    }
  }, 60_000);

  it('PRACKs a reliable 183 (100rel) and then takes the 200 OK', async () => {
    const port = await freeUdpPort();
    const callee = runSippServer(port, ['-sf', scenario('reliable-early-media-callee.xml'), '-m', '1']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const transport = test.server.services.media.transport;
    await transport.ensureRoom({ room: 'room-reliable' });
    const watcher = await transport.join({ room: 'room-reliable', identity: 'watcher', hidden: true });
    const statuses: string[] = [];
    watcher.on('participantJoined', (participant) => participant.kind === 'sip' && statuses.push(participant.attributes[SIP_CALL_STATUS_ATTRIBUTE] ?? ''));
    watcher.on('participantUpdated', (participant) => participant.kind === 'sip' && statuses.push(participant.attributes[SIP_CALL_STATUS_ATTRIBUTE] ?? ''));
    await endpoint.placeCall({ ...outboundCall(port, 'room-reliable'), waitUntilAnswered: true });
    await eventually(() => expect(statuses).toEqual(['dialing', 'ringing', 'active']));
    await transport.deleteRoom('room-reliable');
    const result = await callee;
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(endpoint.activeCalls).toBe(0));
    await watcher.leave();
  }, 60_000);

  it('through a forking proxy: PRACKs each early dialog, takes the callee whose 200 OK comes first, ACKs and BYEs a second one', async () => {
    const port = await freeUdpPort();
    const callee = runSippServer(port, ['-sf', scenario('forked-callees.xml'), '-m', '1']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const transport = test.server.services.media.transport;
    await transport.ensureRoom({ room: 'room-forked' });
    const watcher = await transport.join({ room: 'room-forked', identity: 'watcher', hidden: true });
    const statuses: string[] = [];
    watcher.on('participantJoined', (participant) => participant.kind === 'sip' && statuses.push(participant.attributes[SIP_CALL_STATUS_ATTRIBUTE] ?? ''));
    watcher.on('participantUpdated', (participant) => participant.kind === 'sip' && statuses.push(participant.attributes[SIP_CALL_STATUS_ATTRIBUTE] ?? ''));
    await endpoint.placeCall({ ...outboundCall(port, 'room-forked'), waitUntilAnswered: true });
    await eventually(() => expect(statuses).toEqual(['dialing', 'ringing', 'active']));
    // SIPp checks each PRACK, ACK and BYE went to its callee (Request-URI and To tag); callee A, the call, hangs up last.
    const result = await callee;
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(endpoint.activeCalls).toBe(0));
    await eventually(() => expect(watcher.participants().map((participant) => participant.identity)).not.toContain('callee'));
    await watcher.leave();
    await transport.deleteRoom('room-forked');
  }, 60_000);
});
