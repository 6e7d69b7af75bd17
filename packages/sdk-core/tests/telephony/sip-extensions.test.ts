import { randomUUID } from 'node:crypto';
import { ParticipantInfo_Kind } from '@livekit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { SipEndpoint } from '../../src/server/engines/telephony/index.js';
import { startTestEndpoint } from './support/test-endpoint.js';
import { ForwardingProxy, headerValues } from './support/forwarding-proxy.js';
import { inviteText, RawSipPeer, requireSipp, runSipp, scenario, statusOf } from './support/sip-tools.js';
import { OPEN_NUMBER, testDirectory } from './support/test-directory.js';

const hasSipp = requireSipp();

/** The smallest session interval this endpoint accepts (a setting; 90 s by default, 2 s here so tests are short). */
const MIN_SESSION_SECONDS = 2;

/**
 * The SIP extensions a trunk may use, with SIPp and raw SIP as the caller: route sets (Record-Route, RFC 3261 12.1 and
 * 16.12), session timers (RFC 4028) and reliable provisional responses (100rel, RFC 3262).
 */
describe.skipIf(!hasSipp)('SIP endpoint extensions: route sets, session timers, 100rel', () => {
  let test: TestServer;
  let endpoint: SipEndpoint;
  const directory = testDirectory();

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    endpoint = await startTestEndpoint({
      directory,
      transport: test.server.services.media.transport,
      sessionTimer: { minSeconds: MIN_SESSION_SECONDS },
    });
  });

  afterAll(async () => {
    await endpoint?.close();
    await test?.close();
  });

  /** The room of the call the directory routed after `before` calls, once its caller is in it. */
  async function roomOfCall(before: number): Promise<string> {
    return eventually(() => {
      const name = directory.routed[before]?.roomName;
      const room = name ? test.server.services.media.endpoint?.rooms.get(name) : undefined;
      if (!name || !room?.list().some((member) => member.state.info().kind === ParticipantInfo_Kind.SIP)) throw new Error('not in the room yet');
      return name;
    });
  }

  it('keeps the route set of a caller behind proxies: the 200 OK carries its Record-Route, our BYE goes through the first proxy', async () => {
    const proxy = await ForwardingProxy.open();
    try {
      const before = directory.routed.length;
      const call = runSipp(endpoint.port, ['-sf', scenario('routed-caller.xml'), '-s', OPEN_NUMBER, '-m', '1', '-key', 'proxy_port', String(proxy.port)]);
      const room = await roomOfCall(before);
      await test.server.services.media.transport.deleteRoom(room);
      const result = await call;
      expect(result.code, result.output).toBe(0);
      const [bye] = proxy.received('BYE');
      expect(bye, 'the BYE went through the proxy').toBeDefined();
      expect(headerValues(bye!, 'Route')).toEqual([`<sip:127.0.0.1:${proxy.port};lr>`, '<sip:edge.invalid;lr>']);
      // Loose routing: the Request-URI stays the caller's Contact.
      expect(bye).toMatch(/^BYE sip:\+15550100@127\.0\.0\.1:\d+;transport=UDP SIP\/2\.0/);
      expect(endpoint.activeCalls).toBe(0);
    } finally {
      proxy.close();
    }
  });

  it('keeps a session its caller refreshes (UPDATE and re-INVITE) past the interval', async () => {
    const result = await runSipp(endpoint.port, ['-sf', scenario('session-refreshing-caller.xml'), '-s', OPEN_NUMBER, '-m', '1']);
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(endpoint.activeCalls).toBe(0));
  });

  it('ends a session nobody refreshes with a BYE (a caller that vanished)', async () => {
    const result = await runSipp(endpoint.port, ['-sf', scenario('session-lapsing-caller.xml'), '-s', OPEN_NUMBER, '-m', '1']);
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(endpoint.activeCalls).toBe(0));
  });

  it('refreshes the session itself with UPDATE when the caller asks it to (refresher=uas)', async () => {
    const result = await runSipp(endpoint.port, ['-sf', scenario('session-refreshed-caller.xml'), '-s', OPEN_NUMBER, '-m', '1']);
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(endpoint.activeCalls).toBe(0));
  });

  it('answers a Session-Expires below its Min-SE with 422 and its Min-SE, and keeps nothing open', async () => {
    const peer = await RawSipPeer.open();
    peer.send(
      endpoint.port,
      inviteText({ to: OPEN_NUMBER, callId: `se-${randomUUID()}`, branch: `z9hG4bK${randomUUID()}`, headers: ['Supported: timer', 'Session-Expires: 1'] }),
    );
    const response = await peer.waitFor((message) => statusOf(message) >= 200);
    peer.close();
    expect(statusOf(response)).toBe(422);
    expect(response).toContain(`Min-SE: ${MIN_SESSION_SECONDS}`);
    expect(endpoint.activeCalls).toBe(0);
  });

  it('sends a reliable 180 to a caller that requires 100rel, answers its PRACK, then 200 OK', async () => {
    const result = await runSipp(endpoint.port, ['-sf', scenario('reliable-ringing-caller.xml'), '-s', OPEN_NUMBER, '-m', '1', '-d', '500']);
    expect(result.code, result.output).toBe(0);
    await eventually(() => expect(endpoint.activeCalls).toBe(0));
  });

  it('still refuses an extension it does not know with 420 Bad Extension', async () => {
    const peer = await RawSipPeer.open();
    peer.send(
      endpoint.port,
      inviteText({ to: OPEN_NUMBER, callId: `ext-${randomUUID()}`, branch: `z9hG4bK${randomUUID()}`, headers: ['Require: 100rel, foo'] }),
    );
    const response = await peer.waitFor((message) => statusOf(message) >= 200);
    peer.close();
    expect(statusOf(response)).toBe(420);
    expect(response).toContain('Unsupported: foo');
  });
});
