import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { ParticipantInfo_Kind } from '@livekit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { SipEndpoint } from '../../src/server/engines/telephony/index.js';
import { answerChallenge } from '../../src/server/engines/telephony/auth/digest.js';
import { startTestEndpoint } from './support/test-endpoint.js';
import { inviteText, RawSipPeer, requireSipp, runSipp, scenario, statusOf } from './support/sip-tools.js';
import { AUTH, AUTH_NUMBER, OPEN_NUMBER, REFUSED_ADDRESS_NUMBER, SLOW_NUMBER, testDirectory } from './support/test-directory.js';

const hasSipp = requireSipp();

/** SIP participants in the embedded endpoint's rooms right now. */
function sipParticipants(test: TestServer) {
  const rooms = test.server.services.media.endpoint?.rooms.list() ?? [];
  return rooms.flatMap((room) =>
    room
      .list()
      .filter((member) => member.state.info().kind === ParticipantInfo_Kind.SIP)
      .map((member) => ({ room: room.name, info: member.state.info() })),
  );
}

describe.skipIf(!hasSipp)('SIP endpoint protocol (SIPp and raw SIP as the other party)', () => {
  let test: TestServer;
  let endpoint: SipEndpoint;
  const directory = testDirectory();

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    endpoint = await startTestEndpoint({
      directory,
      transport: test.server.services.media.transport,
      invitesPerSecond: 20,
    });
  });

  afterAll(async () => {
    await endpoint?.close();
    await test?.close();
  });

  it('answers OPTIONS with what it allows', async () => {
    const peer = await RawSipPeer.open();
    peer.send(
      endpoint.port,
      [
        'OPTIONS sip:127.0.0.1 SIP/2.0',
        'Via: SIP/2.0/UDP 127.0.0.1:{port};branch=z9hG4bKopt1',
        'From: <sip:probe@127.0.0.1>;tag=p1',
        'To: <sip:127.0.0.1>',
        'Call-ID: options-1',
        'CSeq: 1 OPTIONS',
        'Max-Forwards: 70',
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n'),
    );
    const response = await peer.waitFor((message) => statusOf(message) >= 200);
    peer.close();
    expect(statusOf(response)).toBe(200);
    expect(response).toMatch(/Allow: .*INVITE.*BYE.*CANCEL.*REFER/);
  });

  it.each(['u1', 't1'])('a caller over %s joins its room as a sip participant and hanging up removes it', async (transport) => {
    const before = directory.routed.length;
    const call = runSipp(endpoint.port, ['-sf', scenario('call.xml'), '-s', OPEN_NUMBER, '-m', '1', '-d', '2500', '-t', transport]);
    const joined = await eventually(() => {
      const found = sipParticipants(test).find((participant) => participant.room === directory.routed[before]?.roomName);
      if (!found) throw new Error('no sip participant yet');
      return found;
    });
    expect(joined.info.identity).toBe('sip_+15550100');
    expect(joined.info.attributes).toMatchObject({ 'sip.phoneNumber': '+15550100', 'sip.trunkPhoneNumber': OPEN_NUMBER, 'sip.callStatus': 'active' });
    expect(joined.info.attributes['sip.callID']).toMatch(/^SCL_/);
    const result = await call;
    expect(result.code, result.output).toBe(0);
    await eventually(() => {
      expect(endpoint.activeCalls).toBe(0);
      expect(sipParticipants(test)).toEqual([]);
    });
  });

  it('challenges a trunk with credentials (401, qop=auth) and answers the right digest', async () => {
    const result = await runSipp(endpoint.port, [
      '-sf',
      scenario('call.xml'),
      '-s',
      AUTH_NUMBER,
      '-au',
      AUTH.username,
      '-ap',
      AUTH.password,
      '-m',
      '1',
      '-d',
      '200',
    ]);
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(endpoint.activeCalls).toBe(0));
  });

  it('refuses a wrong digest with 403 and keeps nothing open', async () => {
    const peer = await RawSipPeer.open();
    const callId = `wrong-${randomUUID()}`;
    peer.send(endpoint.port, inviteText({ to: AUTH_NUMBER, callId, branch: 'z9hG4bKwrong1' }));
    const challenge = await peer.waitFor((message) => statusOf(message) === 401);
    expect(challenge).toMatch(/WWW-Authenticate: Digest realm="palaver", nonce="[^"]+".*qop="auth"/);
    const header = /WWW-Authenticate: (.*)\r\n/.exec(challenge)![1]!;
    const authorization = answerChallenge(header, 'INVITE', `sip:${AUTH_NUMBER}@127.0.0.1`, { username: AUTH.username, password: 'not-the-password' });
    const from = peer.received.length;
    peer.send(endpoint.port, inviteText({ to: AUTH_NUMBER, callId, branch: 'z9hG4bKwrong2', cseq: 2, headers: [`Authorization: ${authorization}`] }));
    const refused = await peer.waitFor((message) => statusOf(message) >= 300, 5000, from);
    peer.close();
    expect(statusOf(refused)).toBe(403);
    expect(endpoint.activeCalls).toBe(0);
    expect(sipParticipants(test)).toEqual([]);
  });

  it.each([
    ['an unknown number', '+19990000', 404],
    ['a source address the trunk does not allow', REFUSED_ADDRESS_NUMBER, 403],
  ])('refuses %s', async (_, number, status) => {
    const peer = await RawSipPeer.open();
    peer.send(endpoint.port, inviteText({ to: number, callId: `refused-${randomUUID()}`, branch: `z9hG4bK${randomUUID()}` }));
    const response = await peer.waitFor((message) => statusOf(message) >= 200);
    peer.close();
    expect(statusOf(response)).toBe(status);
    expect(endpoint.activeCalls).toBe(0);
  });

  it.each([
    ['an SDP that is not SDP', 'hello there', 400],
    [
      'an offer without a common codec',
      'v=0\r\no=x 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 4000 RTP/AVP 18\r\na=rtpmap:18 G729/8000\r\n',
      488,
    ],
    [
      'an offer with video only',
      'v=0\r\no=x 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=video 4000 RTP/AVP 96\r\na=rtpmap:96 VP8/90000\r\n',
      488,
    ],
  ])('answers %s with a SIP error', async (_, sdp, status) => {
    const peer = await RawSipPeer.open();
    peer.send(endpoint.port, inviteText({ to: OPEN_NUMBER, callId: `sdp-${randomUUID()}`, branch: `z9hG4bK${randomUUID()}`, sdp }));
    const response = await peer.waitFor((message) => statusOf(message) >= 200);
    peer.close();
    expect(statusOf(response)).toBe(status);
    expect(endpoint.activeCalls).toBe(0);
    expect(sipParticipants(test)).toEqual([]);
  });

  it('answers malformed SIP with 400 when it can and survives garbage', async () => {
    const peer = await RawSipPeer.open();
    peer.send(endpoint.port, '\u0000\u0001garbage that is not SIP at all\r\n\r\n');
    peer.send(
      endpoint.port,
      'INVITE sip:x@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:{port};branch=z9hG4bKbad\r\nCSeq: banana\r\nCall-ID: bad-1\r\nFrom: <sip:a@b>;tag=1\r\nTo: <sip:x@127.0.0.1>\r\n\r\n',
    );
    const response = await peer.waitFor((message) => statusOf(message) >= 200);
    expect(statusOf(response)).toBe(400);
    peer.send(
      endpoint.port,
      inviteText({ to: OPEN_NUMBER, callId: `cl-${randomUUID()}`, branch: 'z9hG4bKcl', sdp: 'v=0' }).replace(/Content-Length: \d+/, 'Content-Length: 999'),
    );
    const tooLong = await peer.waitFor((message) => statusOf(message) >= 200, 5000, peer.received.length);
    expect(statusOf(tooLong)).toBe(400);
    peer.close();
    // Still serving.
    const result = await runSipp(endpoint.port, ['-sf', scenario('call.xml'), '-s', OPEN_NUMBER, '-m', '1', '-d', '100']);
    expect(result.code, result.output).toBe(0);
  });

  it('a CANCEL before the answer ends the INVITE with 487 and leaves nothing behind', async () => {
    const peer = await RawSipPeer.open();
    const callId = `cancel-${randomUUID()}`;
    peer.send(endpoint.port, inviteText({ to: SLOW_NUMBER, callId, branch: 'z9hG4bKcancel1' }));
    await peer.waitFor((message) => statusOf(message) === 100);
    peer.send(
      endpoint.port,
      [
        `CANCEL sip:${SLOW_NUMBER}@127.0.0.1 SIP/2.0`,
        'Via: SIP/2.0/UDP 127.0.0.1:{port};branch=z9hG4bKcancel1;rport',
        'From: <sip:+15550100@127.0.0.1>;tag=caller1',
        `To: <sip:${SLOW_NUMBER}@127.0.0.1>`,
        `Call-ID: ${callId}`,
        'CSeq: 1 CANCEL',
        'Max-Forwards: 70',
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n'),
    );
    const cancelled = await peer.waitFor((message) => statusOf(message) === 200 && message.includes('CANCEL'));
    expect(cancelled).toContain('CSeq: 1 CANCEL');
    const terminated = await peer.waitFor((message) => statusOf(message) === 487);
    expect(terminated).toContain('CSeq: 1 INVITE');
    // The slow dispatch returns later: still nobody joins, no call is left.
    await eventually(() => expect(directory.routed.some((route) => route.roomName === `call-${callId}`)).toBe(true), 10_000);
    await new Promise((resolve) => setImmediate(resolve));
    peer.close();
    expect(endpoint.activeCalls).toBe(0);
    expect(sipParticipants(test)).toEqual([]);
  });

  it('closes a TCP connection it cannot frame (no Content-Length) after a 400, and keeps serving', async () => {
    const socket = connect({ host: '127.0.0.1', port: endpoint.port });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('OPTIONS sip:127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/TCP 127.0.0.1:5999;branch=z9hG4bKtcp1\r\nCall-ID: tcp-1\r\nCSeq: 1 OPTIONS\r\n\r\n');
    await closed;
    expect(statusOf(answer)).toBe(400);
    const result = await runSipp(endpoint.port, ['-sf', scenario('call.xml'), '-s', OPEN_NUMBER, '-m', '1', '-d', '100', '-t', 't1']);
    expect(result.code, result.output).toBe(0);
  });

  it('holds and resumes on re-INVITE (sendonly -> recvonly, sendrecv -> sendrecv)', async () => {
    const result = await runSipp(endpoint.port, ['-sf', scenario('hold.xml'), '-s', OPEN_NUMBER, '-m', '1']);
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(endpoint.activeCalls).toBe(0));
  });

  it('sends BYE when the room ends the call', async () => {
    const before = directory.routed.length;
    const call = runSipp(endpoint.port, ['-sf', scenario('hung-up-on.xml'), '-s', OPEN_NUMBER, '-m', '1']);
    const room = await eventually(() => {
      const name = directory.routed[before]?.roomName;
      if (!name || !sipParticipants(test).some((participant) => participant.room === name)) throw new Error('not in the room yet');
      return name;
    });
    await test.server.services.media.transport.deleteRoom(room);
    const result = await call;
    expect(result.code, result.output).toBe(0);
    expect(endpoint.activeCalls).toBe(0);
  });

  it('survives a flood of INVITEs: the excess gets 503, every call ends, nothing stays open', async () => {
    const result = await runSipp(endpoint.port, ['-sf', scenario('call.xml'), '-s', OPEN_NUMBER, '-m', '200', '-r', '400', '-l', '200', '-d', '500'], 120_000);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/503|Unexpected/);
    await eventually(() => {
      expect(endpoint.activeCalls).toBe(0);
      expect(sipParticipants(test)).toEqual([]);
    }, 40_000);
    // After the flood, calls go through again.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = await runSipp(endpoint.port, ['-sf', scenario('call.xml'), '-s', OPEN_NUMBER, '-m', '1', '-d', '100']);
    expect(after.code, after.output).toBe(0);
  }, 180_000);
});
