import { ListUpdate, Pagination, SIPDispatchRule, SIPDispatchRuleInfo, SIPInboundTrunkInfo, SIPTransport } from '@livekit/protocol';
import { AccessToken, SipCallError, SipClient } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { SipCallFailed, type OutboundCallRequest, type SipCalls, type TransferRequest } from '../../src/server/kernel/ports/sip-calls.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * LiveKit's SIP service (`/twirp/livekit.SIP/*`) as `livekit-server-sdk`'s `SipClient` calls it against a started
 * platform, on each store: trunks and dispatch rules made, listed, changed and deleted, and what the SIP endpoint's
 * directory decides from them.
 */
describe.each(await storeKinds())('SIP service with SipClient (%s)', (kind) => {
  let test: TestServer;
  let sip: SipClient;
  let url: string;

  beforeAll(async () => {
    test = await startTestServer(kind);
    url = await test.server.listen(0, '127.0.0.1');
    sip = new SipClient(url, test.server.services.media.apiKey, DEVELOPMENT_API_SECRET);
  });
  afterAll(() => test?.close());

  it('creates, lists, updates and deletes inbound and outbound trunks', async () => {
    const inbound = await sip.createSipInboundTrunk('office', ['+15550100'], {
      allowedAddresses: ['192.0.2.0/24'],
      authUsername: 'pbx',
      authPassword: 's3cret',
    });
    expect(inbound.sipTrunkId).toMatch(/^ST_\w{12}$/);
    expect(inbound).toMatchObject({ name: 'office', numbers: ['+15550100'], allowedAddresses: ['192.0.2.0/24'], authUsername: 'pbx' });
    const outbound = await sip.createSipOutboundTrunk('provider', 'sip.example.net:5080', ['+15550199'], { transport: SIPTransport.SIP_TRANSPORT_TCP });
    expect(outbound).toMatchObject({ name: 'provider', address: 'sip.example.net:5080', numbers: ['+15550199'], transport: SIPTransport.SIP_TRANSPORT_TCP });

    expect((await sip.listSipInboundTrunk()).map((trunk) => trunk.sipTrunkId)).toContain(inbound.sipTrunkId);
    expect((await sip.listSipInboundTrunk({ numbers: ['15550100'] })).map((trunk) => trunk.sipTrunkId)).toEqual([inbound.sipTrunkId]);
    expect((await sip.listSipOutboundTrunk()).map((trunk) => trunk.sipTrunkId)).toEqual([outbound.sipTrunkId]);

    const updated = await sip.updateSipInboundTrunkFields(inbound.sipTrunkId, { numbers: new ListUpdate({ add: ['+15550101'] }), name: 'office 2' });
    expect(updated).toMatchObject({ name: 'office 2', numbers: ['+15550100', '+15550101'], authUsername: 'pbx' });
    expect((await sip.listSipInboundTrunk({ trunkIds: [inbound.sipTrunkId] }))[0]?.numbers).toEqual(['+15550100', '+15550101']);

    expect((await sip.deleteSipTrunk(inbound.sipTrunkId)).sipTrunkId).toBe(inbound.sipTrunkId);
    expect(await sip.listSipInboundTrunk({ trunkIds: [inbound.sipTrunkId] })).toEqual([]);
    await sip.deleteSipTrunk(outbound.sipTrunkId);
  });

  it('replaces trunks and rules whole, updates outbound fields, and answers GetSIP*Trunk', async () => {
    const inbound = await sip.createSipInboundTrunk('before', ['+15551100']);
    const replaced = await sip.updateSipInboundTrunk(
      inbound.sipTrunkId,
      new SIPInboundTrunkInfo({ name: 'after', numbers: ['+15551101'], allowedNumbers: ['+1555'] }),
    );
    expect(replaced).toMatchObject({ sipTrunkId: inbound.sipTrunkId, name: 'after', numbers: ['+15551101'], allowedNumbers: ['+1555'] });
    const outbound = await sip.createSipOutboundTrunk('carrier', 'sip.example.net', ['+15551102']);
    const moved = await sip.updateSipOutboundTrunkFields(outbound.sipTrunkId, {
      numbers: new ListUpdate({ set: ['+15551103'] }),
      authUsername: 'u',
      authPassword: 'p',
    });
    expect(moved).toMatchObject({ address: 'sip.example.net', numbers: ['+15551103'], authUsername: 'u' });
    const rule = await sip.createSipDispatchRule({ type: 'direct', roomName: 'desk' }, { trunkIds: [inbound.sipTrunkId] });
    const swapped = await sip.updateSipDispatchRule(
      rule.sipDispatchRuleId,
      new SIPDispatchRuleInfo({
        rule: new SIPDispatchRule({ rule: { case: 'dispatchRuleIndividual', value: { roomPrefix: 'vip', pin: '' } } }),
        name: 'swapped',
      }),
    );
    expect(swapped).toMatchObject({ sipDispatchRuleId: rule.sipDispatchRuleId, name: 'swapped', trunkIds: [] });
    expect(swapped.rule?.rule.case).toBe('dispatchRuleIndividual');

    const token = new AccessToken(test.server.services.media.apiKey, DEVELOPMENT_API_SECRET, { ttl: 60 });
    token.addSIPGrant({ admin: true });
    const get = async (method: string, id: string) => {
      const response = await fetch(`${url}/twirp/livekit.SIP/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await token.toJwt()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sip_trunk_id: id }),
      });
      return { status: response.status, body: (await response.json()) as { trunk?: { sip_trunk_id: string; name: string } } };
    };
    expect(await get('GetSIPInboundTrunk', inbound.sipTrunkId)).toMatchObject({
      status: 200,
      body: { trunk: { sip_trunk_id: inbound.sipTrunkId, name: 'after' } },
    });
    expect(await get('GetSIPOutboundTrunk', outbound.sipTrunkId)).toMatchObject({ status: 200, body: { trunk: { sip_trunk_id: outbound.sipTrunkId } } });
    expect((await get('GetSIPOutboundTrunk', inbound.sipTrunkId)).status).toBe(404);

    await sip.deleteSipDispatchRule(rule.sipDispatchRuleId);
    await sip.deleteSipTrunk(inbound.sipTrunkId);
    await sip.deleteSipTrunk(outbound.sipTrunkId);
  });

  it('pages lists as LiveKit does: ids after `afterId`, at most `limit`', async () => {
    const numbers = ['+15550901', '+15550902', '+15550903'];
    const trunks = await Promise.all(numbers.map((number) => sip.createSipInboundTrunk(`paged ${number}`, [number])));
    const ids = trunks.map((trunk) => trunk.sipTrunkId).sort();
    const first = await sip.listSipInboundTrunk({ numbers, page: new Pagination({ limit: 2 }) });
    expect(first.map((trunk) => trunk.sipTrunkId)).toEqual(ids.slice(0, 2));
    const rest = await sip.listSipInboundTrunk({ numbers, page: new Pagination({ afterId: ids[1]!, limit: 2 }) });
    expect(rest.map((trunk) => trunk.sipTrunkId)).toEqual(ids.slice(2));
    for (const id of ids) await sip.deleteSipTrunk(id);
  });

  it('creates, lists, updates and deletes dispatch rules of the three kinds', async () => {
    const trunk = await sip.createSipInboundTrunk('rules', ['+15550200']);
    const individual = await sip.createSipDispatchRule({ type: 'individual', roomPrefix: 'call' }, { trunkIds: [trunk.sipTrunkId], name: 'per caller' });
    const direct = await sip.createSipDispatchRule({ type: 'direct', roomName: 'front-desk', pin: '1234' }, { trunkIds: [trunk.sipTrunkId] });
    const callee = await sip.createSipDispatchRule({ type: 'callee', roomPrefix: 'line', randomize: true }, { attributes: { team: 'sales' } });
    expect(individual.sipDispatchRuleId).toMatch(/^SDR_\w{12}$/);
    expect(direct.rule?.rule).toMatchObject({ case: 'dispatchRuleDirect', value: { roomName: 'front-desk', pin: '1234' } });
    expect(callee.attributes).toEqual({ team: 'sales' });

    const listed = await sip.listSipDispatchRule({ dispatchRuleIds: [individual.sipDispatchRuleId, direct.sipDispatchRuleId] });
    expect(listed.map((rule) => rule.sipDispatchRuleId).sort()).toEqual([individual.sipDispatchRuleId, direct.sipDispatchRuleId].sort());

    const renamed = await sip.updateSipDispatchRuleFields(individual.sipDispatchRuleId, { name: 'renamed', metadata: '{"tier":"gold"}' });
    expect(renamed).toMatchObject({ name: 'renamed', metadata: '{"tier":"gold"}', trunkIds: [trunk.sipTrunkId] });

    for (const rule of [individual, direct, callee])
      expect((await sip.deleteSipDispatchRule(rule.sipDispatchRuleId)).sipDispatchRuleId).toBe(rule.sipDispatchRuleId);
    expect(await sip.listSipDispatchRule({ dispatchRuleIds: [individual.sipDispatchRuleId] })).toEqual([]);
    await sip.deleteSipTrunk(trunk.sipTrunkId);
  });

  it("the endpoint's directory: the trunk a call belongs to, its route, and an address refused", async () => {
    const trunk = await sip.createSipInboundTrunk('directory', ['+15550300'], {
      allowedAddresses: ['198.51.100.0/24'],
      authUsername: 'carrier',
      authPassword: 'pw',
    });
    const rule = await sip.createSipDispatchRule({ type: 'individual', roomPrefix: 'call' }, { trunkIds: [trunk.sipTrunkId], attributes: { source: 'pstn' } });
    const { directory } = test.server.services.sip;
    const call = {
      callId: 'SCL_test1',
      fromUser: '+15557777',
      fromHost: 'carrier.example',
      toUser: '+15550300',
      toHost: 'palaver',
      sourceAddress: '198.51.100.9',
    };

    const match = await directory.findInboundTrunk(call);
    expect(match).toEqual({
      kind: 'trunk',
      trunk: { trunkId: trunk.sipTrunkId, project: test.server.project, authUsername: 'carrier', authPassword: 'pw', mediaEncryption: 'disabled' },
    });
    expect(await directory.findInboundTrunk({ ...call, sourceAddress: '203.0.113.5' })).toEqual({ kind: 'address-refused', trunkId: trunk.sipTrunkId });
    expect(await directory.findInboundTrunk({ ...call, toUser: '+15550999' })).toBeUndefined();

    const route = await directory.dispatch(call, match!.kind === 'trunk' ? match!.trunk : never());
    expect(route).toMatchObject({
      ruleId: rule.sipDispatchRuleId,
      project: test.server.project,
      participantIdentity: 'sip_+15557777',
      participantName: 'Phone +15557777',
      human: '+15557777',
      pin: '',
      participantAttributes: {
        source: 'pstn',
        'sip.callID': 'SCL_test1',
        'sip.trunkID': trunk.sipTrunkId,
        'sip.ruleID': rule.sipDispatchRuleId,
        'sip.phoneNumber': '+15557777',
        'sip.trunkPhoneNumber': '+15550300',
        'sip.callStatus': 'active',
      },
    });
    expect(route!.roomName).toMatch(/^call_\+15557777_\w{12}$/);
    await sip.deleteSipDispatchRule(rule.sipDispatchRuleId);
    await sip.deleteSipTrunk(trunk.sipTrunkId);
  });

  it("a rule answered by a realtime session puts the call in the session's room; answerCall starts it for the caller's number", async () => {
    const trunk = await sip.createSipInboundTrunk('answered', ['+15550400']);
    const config = { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } };
    const rule = await sip.createSipDispatchRule(
      { type: 'individual', roomPrefix: 'call' },
      { trunkIds: [trunk.sipTrunkId], metadata: JSON.stringify({ palaver: { realtime: config } }) },
    );
    const { directory } = test.server.services.sip;
    const call = { callId: 'SCL_test2', fromUser: '+15558888', fromHost: 'h', toUser: '+15550400', toHost: 'palaver', sourceAddress: '127.0.0.1' };
    const match = await directory.findInboundTrunk(call);
    const route = (await directory.dispatch(call, match!.kind === 'trunk' ? match!.trunk : never()))!;
    expect(route.roomName).toMatch(/^rts_/);
    expect(route.participantMetadata).toBe(rule.metadata);

    const answered = await test.server.services.sip.answerCall(route);
    expect(answered.sessionId).toBe(route.roomName);
    const principal = { project: test.server.project, kind: 'key' as const, human: '+15558888', credentialId: 'test' };
    const session = await test.server.services.realtime.retrieve(principal, route.roomName);
    expect(session).toMatchObject({ id: route.roomName, state: 'in_progress' });
    const ended = await test.server.services.realtime.end(principal, route.roomName);
    expect(ended.state).toBe('ended');
    await sip.deleteSipDispatchRule(rule.sipDispatchRuleId);
    await sip.deleteSipTrunk(trunk.sipTrunkId);
  });

  it('CreateSIPParticipant answers unavailable while no SIP endpoint runs here', async () => {
    const trunk = await sip.createSipOutboundTrunk('dial out', 'sip.example.net', ['+15550500']);
    const error = await failureOf(sip.createSipParticipant(trunk.sipTrunkId, '+15550501', 'room-out'));
    expect(error).toMatchObject({ status: 503, code: 'unavailable' });
    expect(error.message).toContain('PALAVER_SIP_PORT');
    const unknown = await failureOf(sip.createSipParticipant('ST_doesnotexist', '+15550501', 'room-out'));
    expect(unknown).toMatchObject({ status: 404, code: 'not_found' });
    await sip.deleteSipTrunk(trunk.sipTrunkId);
  });

  it('CreateSIPParticipant and TransferSIPParticipant reach the SIP endpoint through the SipCalls port; a busy callee is a SipCallError with the SIP status', async () => {
    const trunk = await sip.createSipOutboundTrunk('dial out', 'sip.example.net:5062', ['+15550800'], {
      transport: SIPTransport.SIP_TRANSPORT_TCP,
      authUsername: 'u',
      authPassword: 'p',
    });
    const placed: OutboundCallRequest[] = [];
    const transfers: TransferRequest[] = [];
    const calls: SipCalls = {
      async placeCall(request) {
        placed.push(request);
        if (request.callTo === '+15550486') throw new SipCallFailed(486, 'Busy Here');
        return { participantId: 'PA_1', participantIdentity: request.participantIdentity, roomName: request.roomName, sipCallId: 'SCL_out' };
      },
      async transfer(request) {
        transfers.push(request);
      },
    };
    test.server.services.sip.useCalls(calls);
    try {
      const answered = await sip.createSipParticipant(trunk.sipTrunkId, '+15550801', 'room-out', {
        participantIdentity: 'callee',
        waitUntilAnswered: true,
        ringingTimeout: 20,
      });
      expect(answered).toMatchObject({ participantId: 'PA_1', participantIdentity: 'callee', roomName: 'room-out', sipCallId: 'SCL_out' });
      expect(placed[0]).toMatchObject({
        trunk: { trunkId: trunk.sipTrunkId, address: 'sip.example.net:5062', transport: 'tcp', number: '+15550800', authUsername: 'u', authPassword: 'p' },
        callTo: '+15550801',
        waitUntilAnswered: true,
        ringingTimeoutMs: 20_000,
        human: '+15550801',
        participantAttributes: { 'sip.trunkID': trunk.sipTrunkId, 'sip.phoneNumber': '+15550801', 'sip.trunkPhoneNumber': '+15550800' },
      });
      const busy = await failureOf(sip.createSipParticipant(trunk.sipTrunkId, '+15550486', 'room-out'));
      expect(busy).toBeInstanceOf(SipCallError);
      expect((busy as SipCallError).sipStatusCode).toBe(486);
      expect((busy as SipCallError).sipStatus).toBe('Busy Here');
      await sip.transferSipParticipant('room-out', 'callee', 'tel:+15550900', { playDialtone: true });
      expect(transfers).toEqual([{ roomName: 'room-out', participantIdentity: 'callee', transferTo: 'tel:+15550900', playDialtone: true }]);
    } finally {
      test.server.services.sip.useCalls(undefined);
      await sip.deleteSipTrunk(trunk.sipTrunkId);
    }
  });

  it("a Palaver API key as the token acts for its own project: its trunks are its own, and its calls' project", async () => {
    const { services } = test.server;
    const other = { id: await services.projects.create('SIP tenant') };
    const { key } = await services.apiKeys.create(other.id, 'sip');
    const tenant = new SipClient(url, undefined, undefined, { token: key });
    const trunk = await tenant.createSipInboundTrunk('tenant line', ['+15551200']);
    expect((await tenant.listSipInboundTrunk()).map((item) => item.sipTrunkId)).toEqual([trunk.sipTrunkId]);
    expect((await sip.listSipInboundTrunk()).map((item) => item.sipTrunkId)).not.toContain(trunk.sipTrunkId);
    await expect(sip.deleteSipTrunk(trunk.sipTrunkId)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const call = { callId: 'SCL_tenant', fromUser: '+15559200', fromHost: 'h', toUser: '+15551200', toHost: 'palaver', sourceAddress: '127.0.0.1' };
    expect(await services.sip.directory.findInboundTrunk(call)).toMatchObject({ kind: 'trunk', trunk: { trunkId: trunk.sipTrunkId, project: other.id } });
    const revoked = new SipClient(url, undefined, undefined, { token: 'pk_not_a_key_of_this_server' });
    await expect(revoked.listSipInboundTrunk()).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
    await tenant.deleteSipTrunk(trunk.sipTrunkId);
  });

  it('refuses tokens without the SIP grants, with Twirp errors', async () => {
    const token = new AccessToken(test.server.services.media.apiKey, DEVELOPMENT_API_SECRET, { ttl: 60 });
    token.addGrant({ roomAdmin: true, roomCreate: true });
    const noGrant = new SipClient(url, undefined, undefined, { token: await token.toJwt() });
    expect(await failureOf(noGrant.listSipInboundTrunk())).toMatchObject({ status: 403, code: 'permission_denied' });
    const wrongKey = new SipClient(url, test.server.services.media.apiKey, 'not-the-secret-0000000000000000000000');
    expect(await failureOf(wrongKey.listSipInboundTrunk())).toMatchObject({ status: 401, code: 'unauthenticated' });
    const callOnly = new AccessToken(test.server.services.media.apiKey, DEVELOPMENT_API_SECRET, { ttl: 60 });
    callOnly.addSIPGrant({ call: true });
    const caller = new SipClient(url, undefined, undefined, { token: await callOnly.toJwt() });
    expect(await failureOf(caller.createSipInboundTrunk('x', ['+1555']))).toMatchObject({ status: 403, code: 'permission_denied' });
  });
});

function never(): never {
  throw new Error('expected a trunk match');
}
