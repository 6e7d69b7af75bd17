import { randomUUID } from 'node:crypto';
import type { MediaService } from '@palaver/sdk-core/testing';
import { DisconnectReason } from 'livekit-client';
import { chromiumAvailable, eventually, expect, test } from './support/media-fixture.js';

test.skip(!chromiumAvailable(), 'Chromium is not installed');

function sessionOf(media: MediaService, identity: string) {
  const session = media.endpoint?.clientSessions().find((candidate) => candidate.state.identity === identity && !candidate.left);
  if (!session) throw new Error(`no session for ${identity}`);
  return session;
}

for (const singlePeerConnection of [true, false]) {
  const mode = singlePeerConnection ? 'single PC (/rtc/v1)' : 'dual PC (/rtc)';

  test(`${mode}: a killed signalling socket resumes (ICE restart) and data still flows`, async ({ palaver, newPage }) => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    await palaver.media.transport.ensureRoom({ room });
    const agent = await palaver.media.transport.join({ room });
    const received: string[] = [];
    agent.on('data', (data) => received.push(new TextDecoder().decode(data.payload)));
    const page = await newPage();
    const identity = `resume_${singlePeerConnection ? 'v1' : 'v0'}`;
    const token = await palaver.media.createJoinToken({ room, identity });
    const joined = await page.evaluate(([url, jwt, single]) => window.palaver.connect(url, jwt, { singlePeerConnection: single }), [
      palaver.media.clientUrl(),
      token,
      singlePeerConnection,
    ] as const);
    const before = sessionOf(palaver.media, identity);
    const killedAt = performance.now();
    before.dropSignal();
    await eventually(async () => expect(await page.evaluate(() => window.palaver.events())).toContain('reconnected'), 20_000, 50);
    console.log(`[${mode}] resumed ${Math.round(performance.now() - killedAt)} ms after the socket was killed`);
    // Same session (resume, not rejoin): same participant sid, agent saw no leave.
    expect(sessionOf(palaver.media, identity)).toBe(before);
    expect(agent.participants().map((participant) => participant.sid)).toEqual([joined.sid]);
    await page.evaluate(() => window.palaver.sendData('after resume', 'check'));
    await agent.sendData('agent after resume', { topic: 'check' });
    await eventually(async () => {
      expect(received).toContain('after resume');
      expect(await page.evaluate(() => window.palaver.received())).toContainEqual({ kind: 'data', topic: 'check', from: 'agent', text: 'agent after resume' });
    });
    await page.evaluate(() => window.palaver.disconnect());
    await agent.leave();
  });

  test(`${mode}: a session the server lost triggers a full reconnect`, async ({ palaver, newPage }) => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    await palaver.media.transport.ensureRoom({ room });
    const agent = await palaver.media.transport.join({ room });
    const page = await newPage();
    const identity = `rejoin_${singlePeerConnection ? 'v1' : 'v0'}`;
    const token = await palaver.media.createJoinToken({ room, identity });
    const joined = await page.evaluate(([url, jwt, single]) => window.palaver.connect(url, jwt, { singlePeerConnection: single }), [
      palaver.media.clientUrl(),
      token,
      singlePeerConnection,
    ] as const);
    const lostAt = performance.now();
    sessionOf(palaver.media, identity).forget();
    await eventually(async () => expect(await page.evaluate(() => window.palaver.events())).toContain('reconnected'), 30_000, 50);
    console.log(`[${mode}] full reconnect ${Math.round(performance.now() - lostAt)} ms after the session was lost`);
    const after = sessionOf(palaver.media, identity);
    expect(after.state.sid).not.toBe(joined.sid);
    await eventually(() => expect(agent.participants().map((participant) => participant.sid)).toEqual([after.state.sid]));
    expect(await page.evaluate(() => window.palaver.state())).toBe('connected');
    await page.evaluate(() => window.palaver.disconnect());
    await agent.leave();
  });
}

test('a clean leave removes the participant as one that left, not one that timed out', async ({ palaver, newPage }) => {
  const room = `room_${randomUUID().slice(0, 8)}`;
  await palaver.media.transport.ensureRoom({ room });
  const agent = await palaver.media.transport.join({ room });
  const left: string[] = [];
  agent.on('participantLeft', (participant) => left.push(participant.identity));
  const page = await newPage();
  await page.evaluate(([url, jwt]) => window.palaver.connect(url, jwt), [
    palaver.media.clientUrl(),
    await palaver.media.createJoinToken({ room, identity: 'leaver' }),
  ] as const);
  await eventually(() => expect(agent.participants()).toHaveLength(1));
  const session = sessionOf(palaver.media, 'leaver');
  await page.evaluate(() => window.palaver.disconnect());
  await eventually(() => expect(left).toEqual(['leaver']), 20_000, 20);
  // Removed because the client said it leaves, not after its connection timed out (that would be SIGNAL_CLOSE).
  expect(session.left).toBe(true);
  expect(session.state.disconnectReason).toBe(DisconnectReason.CLIENT_INITIATED);
  expect(palaver.media.endpoint?.clientSessions().filter((candidate) => candidate.state.identity === 'leaver' && !candidate.left)).toEqual([]);
  await agent.leave();
});
