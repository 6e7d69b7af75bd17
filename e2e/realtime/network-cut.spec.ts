import type { Page } from '@playwright/test';
import { createClient } from '@palaver/sdk-core';
import { chromiumAvailable, eventually, expect, test } from './support/connector-fixture.js';
import { joinBuiltInSession } from './support/built-in-session.js';
import { cutNetwork, startCuttableServer, type CuttableServer } from './support/cut-network.js';

/**
 * A real network cut (issue 30 part 3): every WebRTC datagram between Chromium and the embedded endpoint crosses the
 * testing kit's loopback UDP relay (the endpoint announces the relay's address, PALAVER_MEDIA_NODE_IP), and the cut
 * drops them all for 20 s while the page is offline too (its signalling websocket): what a laptop asleep or a lost
 * Wi-Fi does, media and data channel included (Chromium's offline mode alone leaves WebRTC up). The built-in agent
 * goes on meanwhile; what it sent must reach the page after the resume, every line, in order, once.
 */
test.skip(!chromiumAvailable(), 'Chromium is not installed');

const CUT_MS = 20_000;

type Line = { id: string; agent: boolean; final: boolean; text: string; created_at: string; speaking_ended_at: string | null };
const snapshot = (page: Page) => page.evaluate(() => window.connector.snapshot());
const lines = async (page: Page) => (await snapshot(page)).transcriptions as Line[];
const key = (line: Line) => `${line.agent ? 'agent' : 'human'}:${line.id}`;

async function join(page: Page, platform: CuttableServer, human: string, output: object): Promise<void> {
  await joinBuiltInSession(page, platform.server, human, output);
  // The page's WebRTC flows cross the relay (nothing else reaches the endpoint's sockets).
  expect(platform.relay.counts().forwarded).toBeGreaterThan(0);
}

/** Network back: connected, the agent listening, the page's lines each once and in order; returns them. */
async function resumed(page: Page): Promise<Line[]> {
  await eventually(async () => expect((await snapshot(page)).connectionState).toBe('connected'), 60_000);
  await eventually(async () => expect((await snapshot(page)).agentState).toBe('listening'), 60_000);
  await page.waitForTimeout(1500);
  const had = await lines(page);
  expect(new Set(had.map(key)).size).toBe(had.length);
  const times = had.map((line) => Date.parse(line.created_at));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  const history = await page.evaluate(() => window.connector.history());
  expect(history.connectionStates).toContain('resuming');
  expect(history.connectionStates.at(-1)).toBe('connected');
  expect(history.resumeReasons).toContain('network');
  return had;
}

/** The agent's own log (`transcript_resume {after: null}`) as the oracle: nothing it sent is missing or different. */
async function expectEveryLineSent(page: Page, had: Line[]): Promise<Line[]> {
  const seen = new Map(had.map((line) => [key(line), line]));
  await page.evaluate(() => window.connector.sendData('transcript_resume', JSON.stringify({ after: null })));
  let sent: Line[] = [];
  await eventually(async () => {
    sent = await lines(page);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.filter((line) => seen.get(key(line))?.text !== line.text || (line.final && !seen.get(key(line))?.final))).toEqual([]);
  }, 10_000);
  expect(sent.map(key)).toEqual(had.map(key));
  return sent;
}

test('a 20 s cut of WebRTC and signalling while the agent speaks: resuming (network), connected again, every line once, in order', async ({ newPage }) => {
  test.setTimeout(180_000);
  const platform = await startCuttableServer();
  try {
    const page = await newPage();
    await join(page, platform, 'human_cut_off', {});
    await page.evaluate(() =>
      window.connector.sendChat('Tell me about the laptop. It fell asleep on the train. The Wi-Fi went away with it. Did you keep talking?'),
    );
    // The agent has started answering aloud: its line is on the page, not yet final.
    await eventually(async () => expect((await lines(page)).some((line) => line.agent)).toBe(true), 30_000);
    expect((await snapshot(page)).agentState).toBe('speaking');
    const restore = await cutNetwork(platform.relay, page.context());
    const cutAt = Date.now();
    await eventually(async () => expect((await snapshot(page)).status).toBe('reconnecting'), 30_000);
    await page.waitForTimeout(Math.max(0, CUT_MS - (Date.now() - cutAt)));
    const away = await lines(page);
    const backAt = Date.now();
    await restore();

    const had = await resumed(page);
    const sent = await expectEveryLineSent(page, had);
    // The cut was real: the agent finished its answer while the page was away, and the page only had it after.
    const answer = sent.find((line) => line.agent && line.final)!;
    expect(Date.parse(answer.speaking_ended_at!)).toBeGreaterThan(cutAt);
    expect(Date.parse(answer.speaking_ended_at!)).toBeLessThan(backAt);
    expect(away.find((line) => key(line) === key(answer))?.final).not.toBe(true);
    console.log(
      `[network cut, speech] lines ${away.length} at the end of the cut, ${had.length} after; answer ended ${Date.parse(answer.speaking_ended_at!) - cutAt} ms into the cut; relay ${JSON.stringify(platform.relay.counts())}`,
    );
    await page.evaluate(() => window.connector.disconnect());
  } finally {
    await platform.close();
  }
});

test('text the agent sends during a 20 s cut of its data channel reaches the page after it, in order, once', async ({ newPage }) => {
  test.setTimeout(180_000);
  const platform = await startCuttableServer();
  try {
    const page = await newPage();
    await join(page, platform, 'human_text_cut_off', { speech_synthesis_enabled: false });
    const sessionId = (await snapshot(page)).sessionId!;
    const client = createClient({ baseUrl: platform.server.url!, apiKey: platform.server.apiKey });
    const before = await lines(page);
    const restore = await cutNetwork(platform.relay, page.context());
    const cutAt = Date.now();
    // Sent while the page is cut off: only the data channel could carry them, and it is down.
    for (const text of ['First while you were away.', 'Second while you were away.', 'Third while you were away.']) {
      await client.realtime.speak(sessionId, { text });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await eventually(async () => expect((await snapshot(page)).status).toBe('reconnecting'), 30_000);
    await page.waitForTimeout(Math.max(0, CUT_MS - (Date.now() - cutAt)));
    const away = await lines(page);
    expect(away.map(key)).toEqual(before.map(key));
    await restore();

    const had = await resumed(page);
    expect(had.filter((line) => line.agent && line.text.includes('while you were away')).map((line) => line.text)).toEqual([
      'First while you were away.',
      'Second while you were away.',
      'Third while you were away.',
    ]);
    await expectEveryLineSent(page, had);
    await page.evaluate(() => window.connector.disconnect());
  } finally {
    await platform.close();
  }
});
