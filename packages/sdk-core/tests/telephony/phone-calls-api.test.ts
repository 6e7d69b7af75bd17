import { SIPOutboundConfig, SIPTransport } from '@livekit/protocol';
import { SipCallError } from 'livekit-server-sdk';
import { describe, expect, it } from 'vitest';
import { AGENT_IDENTITY, SIP_CALL_STATUS_ATTRIBUTE } from '../../src/contract/wire.js';
import { AUDIBLE_RMS, rms } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { failureOf } from '../support/failure-of.js';
import { humanClient } from '../support/human-clients.js';
import { Baresip } from './support/baresip.js';
import { usePhoneServer } from './support/phone-server.js';
import { freeUdpPort, requireBaresip, requireSipp, runSipp, runSippServer, scenario } from './support/sip-tools.js';

const ready = requireBaresip() && requireSipp();
const CALLEE = '+15550123';

/**
 * Outbound calls and transfers as users make them, with `livekit-server-sdk`'s SipClient against the platform: an
 * outbound trunk to a baresip that answers (the built-in agent greets once it answered), one to a SIPp callee that is
 * busy (486), and a caller transferred with REFER.
 */
describe.skipIf(!ready)('phone calls placed and transferred through the SIP API', () => {
  const phones = usePhoneServer();

  it('dials a phone that answers: dialing then active, and the agent greets once it answered', async () => {
    const { test, sip } = phones;
    const phone = await Baresip.start({ microphone: new Int16Array(8000 * 30), autoAnswer: true, number: CALLEE });
    try {
      const trunk = await sip.createSipOutboundTrunk('out', `127.0.0.1:${phone.sipPort}`, ['+15550199']);
      // A realtime session whose human is the callee: its agent waits in the room for the call to be answered.
      const callee = await humanClient(test, 'callee');
      const { session } = await callee.realtime.start({
        config: { general: {}, input: {}, output: { answer_message: 'Hello, this is Palaver calling you back.' }, generative: { llm: 'builtin-offline' } },
      });
      const watcher = await test.server.services.media.transport.join({ room: session.id, identity: 'watcher', hidden: true });
      const statuses: string[] = [];
      watcher.on('participantJoined', (participant) => participant.kind === 'sip' && statuses.push(participant.attributes[SIP_CALL_STATUS_ATTRIBUTE] ?? ''));
      watcher.on('participantUpdated', (participant) => participant.kind === 'sip' && statuses.push(participant.attributes[SIP_CALL_STATUS_ATTRIBUTE] ?? ''));
      await eventually(() => expect(watcher.participants().some((participant) => participant.identity === AGENT_IDENTITY)).toBe(true), 20_000);

      const placed = await sip.createSipParticipant(trunk.sipTrunkId, CALLEE, session.id, { participantIdentity: 'callee', waitUntilAnswered: true });
      expect(placed).toMatchObject({ participantIdentity: 'callee', roomName: session.id });
      await phone.waitForEvent('CALL_ESTABLISHED');
      await eventually(() => expect(statuses.at(-1)).toBe('active'));
      expect(statuses[0]).toBe('dialing');
      // The greeting is said once the phone answered, and the phone hears it.
      await eventually(
        () => expect(watcher.participants().find((participant) => participant.identity === AGENT_IDENTITY)?.attributes['lk.agent.state']).toBe('speaking'),
        20_000,
      );
      await eventually(
        () => expect(watcher.participants().find((participant) => participant.identity === AGENT_IDENTITY)?.attributes['lk.agent.state']).toBe('listening'),
        20_000,
      );
      await callee.realtime.end(session.id);
      await phone.waitForEvent('CALL_CLOSED');
      await watcher.leave();
      await sip.deleteSipTrunk(trunk.sipTrunkId);
    } finally {
      await phone.stop();
    }
    const heard = phone.heard();
    expect(rms(heard.pcm)).toBeGreaterThan(AUDIBLE_RMS / 4);
    let loudest = 0;
    for (let offset = 0; offset + 1600 <= heard.pcm.length; offset += 1600) loudest = Math.max(loudest, rms(heard.pcm.subarray(offset, offset + 1600)));
    expect(loudest).toBeGreaterThan(AUDIBLE_RMS);
    await eventually(() => expect(test.server.services.telephony!.activeCalls).toBe(0));
  }, 90_000);

  it.each([
    ['UDP', SIPTransport.SIP_TRANSPORT_UDP, 'u1'],
    ['TCP', SIPTransport.SIP_TRANSPORT_TCP, 't1'],
  ])(
    'a busy callee (486) over %s fails the call with its SIP status and leaves nobody in the room',
    async (_, transport, sippTransport) => {
      const { test, sip } = phones;
      const port = await freeUdpPort();
      const callee = runSippServer(port, ['-sf', scenario('busy.xml'), '-m', '1', '-t', sippTransport]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const trunk = await sip.createSipOutboundTrunk('busy', `127.0.0.1:${port}`, ['+15550199'], { transport });
      const failure = await failureOf(
        sip.createSipParticipant(trunk.sipTrunkId, CALLEE, 'room-busy', { participantIdentity: 'busy-callee', waitUntilAnswered: true }),
      );
      expect(failure).toBeInstanceOf(SipCallError);
      expect((failure as SipCallError).sipStatusCode).toBe(486);
      const result = await callee;
      expect(result.code, result.output).toBe(0);
      await eventually(() => {
        expect(test.server.services.telephony!.activeCalls).toBe(0);
        expect(test.server.services.media.endpoint!.rooms.get('room-busy')?.member('busy-callee')).toBeUndefined();
      });
      await sip.deleteSipTrunk(trunk.sipTrunkId);
    },
    60_000,
  );

  it("answers a provider's digest challenge (401, qop=auth) with the outbound trunk's credentials", async () => {
    const { test, sip } = phones;
    const port = await freeUdpPort();
    const provider = runSippServer(port, ['-sf', scenario('challenging-callee.xml'), '-m', '1']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const trunk = await sip.createSipOutboundTrunk('provider', `127.0.0.1:${port}`, ['+15550199'], {
      transport: SIPTransport.SIP_TRANSPORT_UDP,
      authUsername: 'trunk-user',
      authPassword: 'trunk-secret',
    });
    const placed = await sip.createSipParticipant(trunk.sipTrunkId, CALLEE, 'room-provider', {
      participantIdentity: 'provider-callee',
      waitUntilAnswered: true,
    });
    expect(placed).toMatchObject({ participantIdentity: 'provider-callee', roomName: 'room-provider' });
    await test.server.services.media.transport.deleteRoom('room-provider');
    const result = await provider;
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(test.server.services.telephony!.activeCalls).toBe(0));
    await sip.deleteSipTrunk(trunk.sipTrunkId);
  }, 60_000);

  it('places a call through an inline trunk (address, transport, digest credentials and From number in the request, no trunk id)', async () => {
    const { test, sip } = phones;
    const port = await freeUdpPort();
    const provider = runSippServer(port, ['-sf', scenario('challenging-callee.xml'), '-m', '1', '-t', 't1']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await test.server.services.media.transport.ensureRoom({ room: 'room-inline' });
    const watcher = await test.server.services.media.transport.join({ room: 'room-inline', identity: 'watcher', hidden: true });
    const placed = await sip.createSipParticipant(
      '',
      CALLEE,
      'room-inline',
      { participantIdentity: 'inline-callee', fromNumber: '+15550188', waitUntilAnswered: true },
      new SIPOutboundConfig({
        hostname: `127.0.0.1:${port}`,
        transport: SIPTransport.SIP_TRANSPORT_TCP,
        authUsername: 'trunk-user',
        authPassword: 'trunk-secret',
      }),
    );
    expect(placed).toMatchObject({ participantIdentity: 'inline-callee', roomName: 'room-inline' });
    await eventually(() =>
      expect(watcher.participants().find((participant) => participant.identity === 'inline-callee')?.attributes).toMatchObject({
        [SIP_CALL_STATUS_ATTRIBUTE]: 'active',
        'sip.phoneNumber': CALLEE,
        'sip.trunkPhoneNumber': '+15550188',
      }),
    );
    await watcher.leave();
    await test.server.services.media.transport.deleteRoom('room-inline');
    const result = await provider;
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(test.server.services.telephony!.activeCalls).toBe(0));
  }, 60_000);

  it('transfers a caller with REFER and hangs up once the transfer target answered', async () => {
    const { test, sip } = phones;
    const trunk = await sip.createSipInboundTrunk('transfers', ['+15550777']);
    const rule = await sip.createSipDispatchRule({ type: 'direct', roomName: 'front-desk' }, { trunkIds: [trunk.sipTrunkId] });
    const caller = runSipp(test.server.services.telephony!.port, ['-sf', scenario('transferee.xml'), '-s', '+15550777', '-m', '1']);
    let done: string | undefined;
    void caller.then((result) => (done = result.output));
    await eventually(() => {
      if (done) throw new Error(`SIPp ended: ${done}`);
      if (!test.server.services.media.endpoint!.rooms.get('front-desk')?.member('sip_+15550100'))
        throw new Error(
          `not in front-desk: ${JSON.stringify(test.server.services.media.endpoint!.rooms.list().map((room) => [room.name, room.list().map((member) => member.state.identity)]))}`,
        );
    }, 20_000);
    await sip.transferSipParticipant('front-desk', 'sip_+15550100', 'tel:+15550999');
    const result = await caller;
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(test.server.services.telephony!.activeCalls).toBe(0));
    await sip.deleteSipDispatchRule(rule.sipDispatchRuleId);
    await sip.deleteSipTrunk(trunk.sipTrunkId);
  }, 60_000);
});
