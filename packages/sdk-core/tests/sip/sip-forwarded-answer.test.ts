import { createHash } from 'node:crypto';
import { ParticipantInfo, ParticipantInfo_Kind, Room, WebhookEvent } from '@livekit/protocol';
import { AccessToken, SipClient } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_IDENTITY, SIP_CALL_ID_ATTRIBUTE, SIP_PHONE_NUMBER_ATTRIBUTE, SIP_RULE_ID_ATTRIBUTE } from '../../src/contract/wire.js';
import { AnsweredCalls } from '../../src/server/domain/sip/answered-calls.js';
import { DEVELOPMENT_API_KEY, DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);

/** A LiveKit webhook as the deployment sends it: the event's JSON, signed with its key pair (a JWT whose `sha256` is the body's). */
async function signedWebhook(event: WebhookEvent, secret = DEVELOPMENT_API_SECRET): Promise<{ body: string; authorization: string }> {
  const body = event.toJsonString();
  const token = new AccessToken(DEVELOPMENT_API_KEY, secret);
  token.sha256 = createHash('sha256').update(body).digest('base64');
  return { body, authorization: await token.toJwt() };
}

async function post(url: string, webhook: { body: string; authorization: string }): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${url}/livekit/webhook`, {
    method: 'POST',
    headers: { authorization: webhook.authorization, 'content-type': 'application/webhook+json' },
    body: webhook.body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/**
 * The forwarded mode's `palaver` answer (decision 0109): two platform instances on one PostgreSQL database, each
 * forwarding `livekit.SIP` to a "deployment" (another platform with its embedded endpoint, as in sip-instances.test.ts)
 * and receiving its webhooks. A SIP caller joins a deployment room its dispatch rule placed it in; the deployment's
 * `participant_joined` webhook, delivered twice to one instance and once to the other, starts one realtime session in
 * that room; the caller hanging up ends it and the caller is charged their seconds.
 */
describe.runIf(withPostgres)('SIP service with a LiveKit deployment: the palaver answer starts from its webhooks', () => {
  const schema = uniqueSchema();
  let deployment: TestServer;
  let deploymentUrl: string;
  let platforms: TestServer[] = [];
  let urls: string[] = [];

  beforeAll(async () => {
    deployment = await startTestServer('sqlite');
    deploymentUrl = await deployment.server.listen(0, '127.0.0.1');
    const livekit = { url: deploymentUrl.replace(/^http/, 'ws'), apiKey: DEVELOPMENT_API_KEY, apiSecret: DEVELOPMENT_API_SECRET };
    platforms = await Promise.all(
      [0, 1].map(() =>
        startTestServer('sqlite', {
          databaseSchema: schema,
          config: { databaseUrl: postgresUrl, livekit, realtime: { leaseSeconds: 15, appRunEmptySeconds: 0.5 } },
        }),
      ),
    );
    urls = await Promise.all(platforms.map((platform) => platform.server.listen(0, '127.0.0.1')));
  }, 60_000);
  /** The claims recorded for `room` (kind `sip_call_answer`), in the instances' shared database. */
  async function claimsOf(room: string): Promise<number> {
    const rows = await platforms[0]!.server.services.store.db
      .selectFrom('documents')
      .select('id')
      .where('kind', '=', 'sip_call_answer')
      .where('id', '=', room)
      .execute();
    return rows.length;
  }
  afterAll(async () => {
    await Promise.all(platforms.map((platform) => platform.close()));
    await deployment?.close();
    await dropSchema(schema);
  });

  it('one realtime session answers the caller in its room, whichever instance and delivery comes first; the hang-up ends it and meters the caller', async () => {
    const sip = new SipClient(urls[0]!, DEVELOPMENT_API_KEY, DEVELOPMENT_API_SECRET);
    const trunk = await sip.createSipInboundTrunk('forwarded answers', ['+15550800']);
    const metadata = JSON.stringify({ palaver: { realtime: { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } } } });
    const rule = await sip.createSipDispatchRule({ type: 'individual', roomPrefix: 'call' }, { trunkIds: [trunk.sipTrunkId], metadata });
    // The answer is named after the room: a room shared by every call (direct) would be taken after the first.
    await expect(sip.createSipDispatchRule({ type: 'direct', roomName: 'desk' }, { trunkIds: [trunk.sipTrunkId], metadata })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_argument',
      message: expect.stringMatching(/room per call/),
    });
    const invalid = JSON.stringify({ palaver: { realtime: { general: 5 } } });
    await expect(sip.createSipDispatchRule({ type: 'individual', roomPrefix: 'x' }, { trunkIds: [trunk.sipTrunkId], metadata: invalid })).rejects.toMatchObject(
      {
        status: 400,
        code: 'invalid_argument',
      },
    );

    // LiveKit SIP placed the caller in a room of the deployment, as the individual rule names it.
    const room = 'call_+15559801_Fw4rd';
    const attributes = { [SIP_RULE_ID_ATTRIBUTE]: rule.sipDispatchRuleId, [SIP_PHONE_NUMBER_ATTRIBUTE]: '+15559801', [SIP_CALL_ID_ATTRIBUTE]: 'SCL_fw4rd' };
    await deployment.server.services.media.transport.ensureRoom({ room });
    const caller = await deployment.server.services.media.transport.join({ room, identity: 'sip_+15559801', name: 'Phone +15559801', kind: 'sip', attributes });
    const joined = await signedWebhook(
      new WebhookEvent({
        event: 'participant_joined',
        id: 'EV_fw4rd',
        createdAt: BigInt(Math.floor(Date.now() / 1000)),
        room: new Room({ name: room, sid: 'RM_fw4rd' }),
        participant: new ParticipantInfo({ sid: 'PA_fw4rd', identity: 'sip_+15559801', name: 'Phone +15559801', kind: ParticipantInfo_Kind.SIP, attributes }),
      }),
    );

    const answers = await Promise.all([post(urls[0]!, joined), post(urls[1]!, joined), post(urls[0]!, joined)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.json['outcome']).sort()).toEqual(['already_answered', 'already_answered', 'answered']);
    expect(answers.find((answer) => answer.json['outcome'] === 'answered')?.json).toMatchObject({ room, session_id: room });
    // A delivery after the answer started changes nothing either.
    expect((await post(urls[1]!, joined)).json).toMatchObject({ outcome: 'already_answered', room });

    await eventually(() => expect(caller.participants().map((participant) => participant.identity)).toContain(AGENT_IDENTITY), 20_000);
    const principal = { project: platforms[0]!.server.project, kind: 'key' as const, human: '+15559801', credentialId: 'test' };
    expect((await platforms[1]!.server.services.realtime.retrieve(principal, room)).state).toBe('in_progress');

    await new Promise((resolve) => setTimeout(resolve, 500));
    await caller.leave();
    // The agent sees a SIP participant leave: the session ends at once, and the caller's seconds are theirs.
    await eventually(async () => expect((await platforms[0]!.server.services.realtime.retrieve(principal, room)).state).toBe('ended'), 20_000);
    const { store, usage } = platforms[0]!.server.services;
    await eventually(
      async () => expect((await usage.consumption(store.db, platforms[0]!.server.project, '+15559801', 'conversational_seconds')).used).toBeGreaterThan(0),
      20_000,
    );

    // No record of the call is left to pile up: the ended session is what remains of it.
    expect(await claimsOf(room)).toBe(0);
    // A late duplicate of the webhook, on either instance, starts nothing for the ended call.
    for (const url of urls) expect((await post(url, joined)).json).toMatchObject({ outcome: 'already_answered', room });
    expect((await platforms[1]!.server.services.realtime.retrieve(principal, room)).state).toBe('ended');
    expect(await claimsOf(room)).toBe(0);
  }, 90_000);

  it('a claim left by an instance that died while starting an answer is swept once stale, by any instance', async () => {
    const room = 'call_+15559804_St4le';
    const stale = new Date(Date.now() - 11 * 60_000).toISOString();
    const { store } = platforms[0]!.server.services;
    const claim = { kind: 'sip_call_answer', project: platforms[0]!.server.project, human: null, parent: null, name: null, tags: null, deleted_at: null };
    await store.db
      .insertInto('documents')
      .values([
        { ...claim, id: room, data: '{}', created_at: stale, updated_at: stale },
        { ...claim, id: `${room}_fresh`, data: '{}', created_at: new Date().toISOString(), updated_at: new Date().toISOString() },
      ])
      .execute();
    const answered = new AnsweredCalls(store);
    await Promise.all([answered.sweep(), new AnsweredCalls(platforms[1]!.server.services.store).sweep()]);
    expect(await claimsOf(room)).toBe(0);
    expect(await claimsOf(`${room}_fresh`)).toBe(1);
    await answered.release(`${room}_fresh`);
  });

  it('an app run answers a caller the same way, metered to the human the rule names', async () => {
    const sip = new SipClient(urls[1]!, DEVELOPMENT_API_KEY, DEVELOPMENT_API_SECRET);
    const app = await platforms[1]!.client.appTemplates.apply('app_template_echo', { name: 'Echo for forwarded callers' });
    const trunk = await sip.createSipInboundTrunk('forwarded app', ['+15550801']);
    const metadata = JSON.stringify({ palaver: { app_run: { app: app.id }, human: 'front-desk' } });
    const rule = await sip.createSipDispatchRule({ type: 'callee', roomPrefix: 'desk', randomize: true }, { trunkIds: [trunk.sipTrunkId], metadata });

    const room = 'desk_+15550801_Ap9Rn';
    const attributes = { [SIP_RULE_ID_ATTRIBUTE]: rule.sipDispatchRuleId, [SIP_PHONE_NUMBER_ATTRIBUTE]: '+15559802' };
    await deployment.server.services.media.transport.ensureRoom({ room });
    const caller = await deployment.server.services.media.transport.join({ room, identity: 'sip_+15559802', kind: 'sip', attributes });
    const joined = await signedWebhook(
      new WebhookEvent({
        event: 'participant_joined',
        id: 'EV_ap9rn',
        room: new Room({ name: room }),
        participant: new ParticipantInfo({ identity: 'sip_+15559802', kind: ParticipantInfo_Kind.SIP, attributes }),
      }),
    );
    expect(await post(urls[0]!, joined)).toMatchObject({ status: 200, json: { outcome: 'answered', room, run_id: room } });
    await eventually(() => expect(caller.participants().map((participant) => participant.identity)).toContain(AGENT_IDENTITY), 20_000);
    await caller.leave();
    await eventually(() => expect(platforms.some((platform) => platform.server.services.appRuns.hosts(room))).toBe(false), 20_000);
    const { store, usage } = platforms[0]!.server.services;
    const consumed = async (human: string) => (await usage.consumption(store.db, platforms[0]!.server.project, human, 'conversational_seconds')).used;
    await eventually(async () => expect(await consumed('front-desk')).toBeGreaterThan(0), 20_000);
    expect(await consumed('+15559802')).toBe(0);
  }, 90_000);

  it('an answer that cannot start is refused each time it is delivered (the claim is given back for a retry)', async () => {
    const sip = new SipClient(urls[0]!, DEVELOPMENT_API_KEY, DEVELOPMENT_API_SECRET);
    const trunk = await sip.createSipInboundTrunk('forwarded broken answer', ['+15550802']);
    const metadata = JSON.stringify({ palaver: { realtime: { general: {}, input: {}, output: {}, generative: { llm: 'no-such-llm' } } } });
    const rule = await sip.createSipDispatchRule({ type: 'individual', roomPrefix: 'call' }, { trunkIds: [trunk.sipTrunkId], metadata });
    const participant = new ParticipantInfo({
      identity: 'sip_+15559803',
      kind: ParticipantInfo_Kind.SIP,
      attributes: { [SIP_RULE_ID_ATTRIBUTE]: rule.sipDispatchRuleId },
    });
    const joined = await signedWebhook(
      new WebhookEvent({ event: 'participant_joined', id: 'EV_broken', room: new Room({ name: 'call_+15559803_Br0k' }), participant }),
    );
    for (const url of [urls[0]!, urls[1]!]) {
      const answer = await post(url, joined);
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ type: 'invalid_input', message: expect.stringMatching(/no-such-llm/) });
    }
  });

  it('other events and participants are ignored; a bad signature is 401, a body that is no event 400', async () => {
    const room = new Room({ name: 'some-room' });
    const left = await signedWebhook(new WebhookEvent({ event: 'room_finished', id: 'EV_1', room }));
    expect(await post(urls[0]!, left)).toMatchObject({ status: 200, json: { outcome: 'ignored' } });
    const browser = await signedWebhook(
      new WebhookEvent({
        event: 'participant_joined',
        id: 'EV_2',
        room,
        participant: new ParticipantInfo({ identity: 'alice', kind: ParticipantInfo_Kind.STANDARD }),
      }),
    );
    expect(await post(urls[0]!, browser)).toMatchObject({ status: 200, json: { outcome: 'ignored', reason: expect.stringMatching(/not a SIP participant/) } });
    const unrouted = await signedWebhook(
      new WebhookEvent({
        event: 'participant_joined',
        id: 'EV_3',
        room,
        participant: new ParticipantInfo({ identity: 'sip_x', kind: ParticipantInfo_Kind.SIP }),
      }),
    );
    expect(await post(urls[0]!, unrouted)).toMatchObject({ status: 200, json: { outcome: 'ignored' } });

    const forged = await signedWebhook(new WebhookEvent({ event: 'room_finished', id: 'EV_4', room }), 'not-the-secret-not-the-secret-123');
    expect(await post(urls[0]!, forged)).toMatchObject({ status: 401, json: { type: 'unauthorized' } });
    const tampered = { ...left, body: left.body.replace('room_finished', 'room_started') };
    expect(await post(urls[0]!, tampered)).toMatchObject({ status: 401, json: { type: 'unauthorized', message: expect.stringMatching(/sha256/) } });
    const token = new AccessToken(DEVELOPMENT_API_KEY, DEVELOPMENT_API_SECRET);
    token.sha256 = createHash('sha256').update('not json').digest('base64');
    expect(await post(urls[0]!, { body: 'not json', authorization: await token.toJwt() })).toMatchObject({ status: 400, json: { type: 'invalid_input' } });
    // The embedded endpoint answers its own calls: no webhooks there.
    expect(await post(deploymentUrl, left)).toMatchObject({ status: 404, json: { type: 'not_found' } });
  });
});
