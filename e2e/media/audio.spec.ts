import { randomUUID } from 'node:crypto';
import { AGENT_TONE_HZ, MIC_TONE_HZ, chromiumAvailable, eventually, expect, test } from './support/media-fixture.js';
import { analyseTrack, nextAudioTrack, playTone } from './support/agent-audio.js';

test.skip(!chromiumAvailable(), 'Chromium is not installed');

const CANDIDATES = [MIC_TONE_HZ, AGENT_TONE_HZ, 700, 1500, 2500];

for (const singlePeerConnection of [true, false]) {
  const mode = singlePeerConnection ? 'single PC (/rtc/v1)' : 'dual PC (/rtc)';

  test(`${mode}: the server decodes the fake microphone's tone and the page hears the agent's tone`, async ({ palaver, newPage }) => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    await palaver.media.transport.ensureRoom({ room });
    const agent = await palaver.media.transport.join({ room });
    const output = await agent.publishAudio({ sampleRate: 48_000 });
    const stop = new AbortController();
    const playing = playTone(output, AGENT_TONE_HZ, 30_000, stop.signal);

    const page = await newPage();
    const token = await palaver.media.createJoinToken({ room, identity: 'human_mic' });
    await page.evaluate(([url, jwt, single]) => window.palaver.connect(url, jwt, { singlePeerConnection: single }), [
      palaver.media.clientUrl(),
      token,
      singlePeerConnection,
    ] as const);
    await eventually(async () => expect(await page.evaluate(() => window.palaver.events())).toContain('TrackSubscribed'));
    const heard = await page.evaluate((frequency) => window.palaver.measureTone(frequency, 1500), AGENT_TONE_HZ);
    expect(Math.abs(heard.peakFrequency - AGENT_TONE_HZ)).toBeLessThan(30);
    expect(heard.toneDb - heard.floorDb).toBeGreaterThan(20);

    await page.evaluate(() => window.palaver.publishMicrophone());
    const track = await nextAudioTrack(agent, 'human_mic');
    const analysed = await analyseTrack(track, CANDIDATES);
    expect(analysed.frequency).toBe(MIC_TONE_HZ);
    expect(analysed.dominance).toBeGreaterThan(10);
    expect(analysed.rms).toBeGreaterThan(0.05);

    // Barge-in: flushing drops the queued audio at once.
    expect(output.queuedMs).toBeGreaterThan(0);
    output.flush();
    expect(output.queuedMs).toBe(0);
    stop.abort();
    await playing;
    await page.evaluate(() => window.palaver.disconnect());
    await agent.leave();
  });

  test(`${mode}: a track the agent publishes after the client joined is subscribed`, async ({ palaver, newPage }) => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    await palaver.media.transport.ensureRoom({ room });
    const agent = await palaver.media.transport.join({ room });
    const page = await newPage();
    const token = await palaver.media.createJoinToken({ room, identity: 'human_late' });
    await page.evaluate(([url, jwt, single]) => window.palaver.connect(url, jwt, { singlePeerConnection: single }), [
      palaver.media.clientUrl(),
      token,
      singlePeerConnection,
    ] as const);
    const published = performance.now();
    const output = await agent.publishAudio();
    const stop = new AbortController();
    const playing = playTone(output, AGENT_TONE_HZ, 30_000, stop.signal);
    await eventually(async () => expect(await page.evaluate(() => window.palaver.events())).toContain('TrackSubscribed'));
    console.log(`[${mode}] late track subscribed after ${Math.round(performance.now() - published)} ms`);
    const heard = await page.evaluate((frequency) => window.palaver.measureTone(frequency, 1000), AGENT_TONE_HZ);
    expect(Math.abs(heard.peakFrequency - AGENT_TONE_HZ)).toBeLessThan(30);
    stop.abort();
    await playing;
    await page.evaluate(() => window.palaver.disconnect());
    await agent.leave();
  });
}

test('two humans in one room: audio is forwarded and data relayed between them', async ({ palaver, newPage }) => {
  const room = `room_${randomUUID().slice(0, 8)}`;
  await palaver.media.transport.ensureRoom({ room });
  const agent = await palaver.media.transport.join({ room });
  const speaker = await newPage();
  const listener = await newPage();
  const url = palaver.media.clientUrl();
  await listener.evaluate(([u, jwt]) => window.palaver.connect(u, jwt), [url, await palaver.media.createJoinToken({ room, identity: 'listener' })] as const);
  await speaker.evaluate(([u, jwt]) => window.palaver.connect(u, jwt, { singlePeerConnection: false }), [
    url,
    await palaver.media.createJoinToken({ room, identity: 'speaker' }),
  ] as const);
  await speaker.evaluate(() => window.palaver.publishMicrophone());
  await eventually(async () => expect(await listener.evaluate(() => window.palaver.events())).toContain('TrackSubscribed'), 15_000);
  const heard = await listener.evaluate((frequency) => window.palaver.measureTone(frequency, 1500), MIC_TONE_HZ);
  expect(Math.abs(heard.peakFrequency - MIC_TONE_HZ)).toBeLessThan(30);

  await speaker.evaluate(() => window.palaver.sendData('to listener only', 'relay', ['listener']));
  await eventually(async () =>
    expect(await listener.evaluate(() => window.palaver.received())).toContainEqual({
      kind: 'data',
      topic: 'relay',
      from: 'speaker',
      text: 'to listener only',
    }),
  );
  const agentData: string[] = [];
  agent.on('data', (data) => agentData.push(new TextDecoder().decode(data.payload)));
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(agentData).toEqual([]);
  await speaker.evaluate(() => window.palaver.disconnect());
  await listener.evaluate(() => window.palaver.disconnect());
  await agent.leave();
});
