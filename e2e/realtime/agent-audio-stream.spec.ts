import { randomUUID } from 'node:crypto';
import { AGENT_TONE_HZ, chromiumAvailable, eventually, expect, test } from './support/connector-fixture.js';
import { ScriptedAgent } from './support/scripted-agent.js';

test.skip(!chromiumAvailable(), 'Chromium is not installed');

test('the agent’s audio as a MediaStream: its tone is in the stream, the same stream while the track stays, none after the end', async ({
  palaver,
  newPage,
}) => {
  const room = `rs_${randomUUID().slice(0, 8)}`;
  await palaver.media.transport.ensureRoom({ room, metadata: JSON.stringify({ session: room }) });
  const page = await newPage();
  const token = await palaver.media.createJoinToken({ room, identity: 'human_stream' });
  await page.evaluate(([url, jwt]) => window.connector.connect(url, jwt, { microphone: false }), [palaver.media.clientUrl(), token] as const);
  expect(await page.evaluate((frequency) => window.connector.measureAgentStreamTone(frequency, 100), AGENT_TONE_HZ)).toBeNull();

  const agent = await ScriptedAgent.join(palaver.media, room, 'listening', null);
  await agent.playTone(AGENT_TONE_HZ);
  await eventually(async () => expect((await page.evaluate(() => window.connector.snapshot())).agentAudio).toBe(true));
  const heard = await page.evaluate((frequency) => window.connector.measureAgentStreamTone(frequency, 1500), AGENT_TONE_HZ);
  expect(heard?.sameStream).toBe(true);
  expect(Math.abs(heard!.peakFrequency - AGENT_TONE_HZ)).toBeLessThan(30);
  expect(heard!.toneDb - heard!.floorDb).toBeGreaterThan(20);

  await page.evaluate(() => window.connector.disconnect());
  expect(await page.evaluate((frequency) => window.connector.measureAgentStreamTone(frequency, 100), AGENT_TONE_HZ)).toBeNull();
  await agent.leave();
});
