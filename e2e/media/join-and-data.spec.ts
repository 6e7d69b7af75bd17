import { randomUUID } from 'node:crypto';
import type { IncomingTextStream, ReceivedData } from '@palaver/sdk-core/testing';
import { chromiumAvailable, eventually, expect, test } from './support/media-fixture.js';

test.skip(!chromiumAvailable(), 'Chromium is not installed');

async function agentRoom(media: import('@palaver/sdk-core/testing').MediaService) {
  const room = `room_${randomUUID().slice(0, 8)}`;
  await media.transport.ensureRoom({ room, metadata: JSON.stringify({ session: room }) });
  const agent = await media.transport.join({ room, metadata: JSON.stringify({ agent_state: 'listening' }), attributes: { 'lk.agent.state': 'listening' } });
  return { room, agent };
}

for (const singlePeerConnection of [true, false]) {
  const mode = singlePeerConnection ? 'single PC (/rtc/v1)' : 'dual PC (/rtc)';

  test(`${mode}: joins and sees the agent, its metadata, attributes and the room metadata`, async ({ palaver, newPage }) => {
    const { room, agent } = await agentRoom(palaver.media);
    const page = await newPage();
    const token = await palaver.media.createJoinToken({ room, identity: 'human_a', name: 'Ada' });
    const joined = await page.evaluate(([url, jwt, single]) => window.palaver.connect(url, jwt, { singlePeerConnection: single }), [
      palaver.media.clientUrl(),
      token,
      singlePeerConnection,
    ] as const);
    expect(joined.state).toBe('connected');
    expect(joined.sid).toMatch(/^PA_/);
    const participants = await page.evaluate(() => window.palaver.participants());
    expect(participants).toEqual([
      expect.objectContaining({
        identity: 'agent',
        kind: 4,
        metadata: JSON.stringify({ agent_state: 'listening' }),
        attributes: { 'lk.agent.state': 'listening' },
      }),
    ]);
    expect(await page.evaluate(() => window.palaver.roomMetadata())).toBe(JSON.stringify({ session: room }));
    await eventually(() => expect(agent.participants().map((participant) => participant.identity)).toEqual(['human_a']));

    await agent.setAttributes({ 'lk.agent.state': 'speaking' });
    await agent.setMetadata(JSON.stringify({ agent_state: 'speaking' }));
    await agent.setRoomMetadata(JSON.stringify({ session: room, changed: true }));
    await eventually(async () => {
      const [info] = await page.evaluate(() => window.palaver.participants());
      expect(info?.attributes['lk.agent.state']).toBe('speaking');
      expect(info?.metadata).toBe(JSON.stringify({ agent_state: 'speaking' }));
      expect(await page.evaluate(() => window.palaver.roomMetadata())).toContain('changed');
    });
    await page.evaluate(() => window.palaver.disconnect());
    await agent.leave();
  });

  test(`${mode}: data packets, text streams, RPC and attributes round-trip`, async ({ palaver, newPage }) => {
    const { room, agent } = await agentRoom(palaver.media);
    const received: ReceivedData[] = [];
    const texts: string[] = [];
    const updates: Array<Record<string, string>> = [];
    agent.on('data', (data) => received.push(data));
    agent.onTextStream('lk.chat', (stream: IncomingTextStream) => void stream.readAll().then((text) => texts.push(`${stream.topic}:${stream.from}:${text}`)));
    agent.on('participantUpdated', (participant) => updates.push(participant.attributes));
    agent.registerRpcMethod('add', async (invocation) => String(JSON.parse(invocation.payload).reduce((sum: number, value: number) => sum + value, 0)));
    const page = await newPage();
    const token = await palaver.media.createJoinToken({ room, identity: 'human_b' });
    await page.evaluate(([url, jwt, single]) => window.palaver.connect(url, jwt, { singlePeerConnection: single }), [
      palaver.media.clientUrl(),
      token,
      singlePeerConnection,
    ] as const);

    // agent -> client: data with a topic, text stream
    await agent.sendData(JSON.stringify({ text: 'hello' }), { topic: 'message' });
    await agent.sendText('streamed words', { topic: 'chat' });
    await eventually(async () => {
      const got = await page.evaluate(() => window.palaver.received());
      expect(got).toEqual(
        expect.arrayContaining([
          { kind: 'data', topic: 'message', from: 'agent', text: JSON.stringify({ text: 'hello' }) },
          { kind: 'text', topic: 'chat', from: 'agent', text: 'streamed words' },
        ]),
      );
    });

    // client -> agent
    await page.evaluate(() => window.palaver.sendData(JSON.stringify({ text: 'typed' }), 'chat_input'));
    await page.evaluate(() => window.palaver.sendText('x'.repeat(40_000), 'lk.chat'));
    await eventually(() => {
      expect(received).toEqual([expect.objectContaining({ topic: 'chat_input', from: 'human_b', reliable: true })]);
      expect(new TextDecoder().decode(received[0]!.payload)).toBe(JSON.stringify({ text: 'typed' }));
      expect(texts).toEqual([`lk.chat:human_b:${'x'.repeat(40_000)}`]);
    });

    // RPC both ways
    expect(await page.evaluate(() => window.palaver.performRpc('agent', 'add', '[1,2,3]'))).toBe('6');
    await page.evaluate(() => window.palaver.registerEcho());
    await expect(agent.performRpc({ destinationIdentity: 'human_b', method: 'echo', payload: 'hi' })).resolves.toBe('echo:hi:agent');
    await expect(agent.performRpc({ destinationIdentity: 'human_b', method: 'missing', payload: '' })).rejects.toMatchObject({ code: 1400 });

    // client attributes reach the agent
    await page.evaluate(() => window.palaver.setAttributes({ mood: 'happy' }));
    await eventually(() => expect(updates.at(-1)).toEqual({ mood: 'happy' }));
    await page.evaluate(() => window.palaver.disconnect());
    await eventually(() => expect(agent.participants()).toEqual([]));
    await agent.leave();
  });
}
