import { JobType, RegisterWorkerRequest, RoomAgentDispatch, RoomConfiguration, ServerMessage, WorkerMessage, type Job } from '@livekit/protocol';
import { AccessToken, SipClient } from 'livekit-server-sdk';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_IDENTITY } from '../../src/contract/wire.js';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import type { InboundCallIdentity, InboundCallRoute } from '../../src/server/kernel/ports/sip-directory.js';
import { HumanParticipant } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * What answers a routed call, as the SIP endpoint drives it: the caller's participant joins the route's room (here an
 * in-process participant stands for the bridged phone), `directory.answer` starts the rule's answer, the caller hangs
 * up and `directory.callEnded` ends it; the call's seconds are the human's.
 */
describe('SIP service: the answer of a call, and its seconds', () => {
  let test: TestServer;
  let sip: SipClient;
  let url: string;

  beforeAll(async () => {
    test = await startTestServer('sqlite', { config: { realtime: { leaseSeconds: 15, appRunEmptySeconds: 0.5 } } });
    url = await test.server.listen(0, '127.0.0.1');
    sip = new SipClient(url, test.server.services.media.apiKey, DEVELOPMENT_API_SECRET);
  });
  afterAll(() => test?.close());

  async function consumed(human: string): Promise<number> {
    const { used } = await test.server.services.usage.consumption(test.server.services.store.db, test.server.project, human, 'conversational_seconds');
    return used;
  }

  /** Routes a call to `number` from `caller` through a new trunk and a rule with `metadata` (and `roomConfig`). */
  async function route(number: string, caller: string, metadata: object, roomConfig?: RoomConfiguration): Promise<InboundCallRoute> {
    const trunk = await sip.createSipInboundTrunk(`answer ${number}`, [number]);
    await sip.createSipDispatchRule(
      { type: 'individual', roomPrefix: 'call' },
      { trunkIds: [trunk.sipTrunkId], metadata: JSON.stringify(metadata), ...(roomConfig ? { roomConfig } : {}) },
    );
    const call: InboundCallIdentity = {
      callId: `SCL_${number}`,
      fromUser: caller,
      fromHost: 'h',
      toUser: number,
      toHost: 'palaver',
      sourceAddress: '127.0.0.1',
    };
    const { directory } = test.server.services.sip;
    const match = await directory.findInboundTrunk(call);
    if (match?.kind !== 'trunk') throw new Error('no trunk matched');
    const routed = await directory.dispatch(call, match.trunk);
    if (!routed) throw new Error('no rule matched');
    return routed;
  }

  it('a realtime session answers in the call room; the hang-up ends it at once and the caller is charged their seconds', async () => {
    const routed = await route('+15551001', '+15559001', {
      palaver: { realtime: { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } } },
    });
    const caller = await HumanParticipant.join(test.server.services.media.transport, routed.roomName, routed.participantIdentity);
    await test.server.services.sip.directory.answer(routed);
    await eventually(() => expect(caller.connection.participants().map((participant) => participant.identity)).toContain(AGENT_IDENTITY), 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await caller.leave();
    await test.server.services.sip.directory.callEnded(routed);
    const principal = { project: test.server.project, kind: 'key' as const, human: '+15559001', credentialId: 'test' };
    expect((await test.server.services.realtime.retrieve(principal, routed.roomName)).state).toBe('ended');
    await eventually(async () => expect(await consumed('+15559001')).toBeGreaterThan(0), 15_000);
  });

  it('an app run answers in the call room and its seconds are the human the rule names', async () => {
    const app = await test.client.appTemplates.apply('app_template_echo', { name: 'Echo for callers' });
    const routed = await route('+15551002', '+15559002', { palaver: { app_run: { app: app.id }, human: 'front-desk' } });
    expect(routed.human).toBe('front-desk');
    const caller = await HumanParticipant.join(test.server.services.media.transport, routed.roomName, routed.participantIdentity);
    const answered = await test.server.services.sip.answerCall(routed);
    expect(answered.runId).toBe(routed.roomName);
    await eventually(() => expect(caller.connection.participants().map((participant) => participant.identity)).toContain(AGENT_IDENTITY), 15_000);
    await caller.leave();
    await test.server.services.sip.directory.callEnded(routed);
    await eventually(() => expect(test.server.services.appRuns.hosts(routed.roomName)).toBe(false), 20_000);
    await eventually(async () => expect(await consumed('front-desk')).toBeGreaterThan(0), 20_000);
    expect(await consumed('+15559002')).toBe(0);
  });

  it("the rule's roomConfig.agents are dispatched to the call's room: a LiveKit Agents worker is offered the job", async () => {
    const worker = await registerWorker('phone-agent');
    try {
      const roomConfig = new RoomConfiguration({ agents: [new RoomAgentDispatch({ agentName: 'phone-agent', metadata: '{"line":"support"}' })] });
      const routed = await route('+15551003', '+15559003', {}, roomConfig);
      expect(routed.roomName).toMatch(/^call_\+15559003_/);
      const caller = await HumanParticipant.join(test.server.services.media.transport, routed.roomName, routed.participantIdentity);
      const answered = await test.server.services.sip.answerCall(routed);
      expect(answered.dispatchIds).toHaveLength(1);
      const job = await worker.offered;
      expect(job).toMatchObject({ room: { name: routed.roomName }, metadata: '{"line":"support"}', agentName: 'phone-agent' });
      await caller.leave();
    } finally {
      worker.socket.close();
    }
  });

  /** A LiveKit Agents worker registered by hand on the embedded endpoint's `/agent` socket: it reports the first job offered. */
  async function registerWorker(agentName: string): Promise<{ socket: WebSocket; offered: Promise<Job | undefined> }> {
    const token = new AccessToken(test.server.services.media.apiKey, DEVELOPMENT_API_SECRET);
    token.addGrant({ agent: true });
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/agent`, { headers: { authorization: `Bearer ${await token.toJwt()}` } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    let registered: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (registered = resolve));
    const offered = new Promise<Job | undefined>((resolve) =>
      socket.on('message', (data) => {
        const message = ServerMessage.fromBinary(new Uint8Array(data as Buffer)).message;
        if (message.case === 'register') registered();
        if (message.case === 'availability') resolve(message.value.job);
      }),
    );
    socket.send(
      new WorkerMessage({ message: { case: 'register', value: new RegisterWorkerRequest({ type: JobType.JT_ROOM, agentName, version: 'sip' }) } }).toBinary(),
    );
    await done;
    return { socket, offered };
  }
});
