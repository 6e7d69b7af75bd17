import type { Page } from '@playwright/test';
import { chromiumAvailable, eventually, expect, test } from './support/connector-fixture.js';
import { joinBuiltInSession } from './support/built-in-session.js';

/**
 * A laptop sleeping 20 s (issue 30 part 3): the page's network goes away (Playwright's offline mode, CDP's emulated
 * network conditions) longer than the signalling ping's ~15 s timeout while the built-in agent answers. The session
 * shows `resuming` with its reason, comes back connected, and the page ends with every transcript line the agent sent
 * (its own log, asked with `transcript_resume {after: null}` at the end), final, in order, each once.
 */
test.skip(!chromiumAvailable(), 'Chromium is not installed');

const SLEEP_MS = 20_000;

type Line = { id: string; agent: boolean; final: boolean; text: string; created_at: string };
const snapshot = (page: Page) => page.evaluate(() => window.connector.snapshot());
const key = (line: Line) => `${line.agent ? 'agent' : 'human'}:${line.id}`;

test('a 20 s sleep: resuming with its reason, connected again, and every line the agent sent shows once, in order', async ({ palaver, newPage }) => {
  test.setTimeout(150_000);
  const page = await newPage();
  await joinBuiltInSession(page, palaver.server, 'human_sleeping');
  await page.evaluate(() => window.connector.sendChat('please tell me a long story about a laptop that falls asleep'));
  await eventually(async () => expect((await snapshot(page)).transcriptions.some((line) => !line.agent)).toBe(true), 30_000);

  const before = (await snapshot(page)).transcriptions.length;
  await page.context().setOffline(true);
  await eventually(async () => expect((await snapshot(page)).status).toBe('reconnecting'), 20_000);
  const resuming = await snapshot(page);
  expect(resuming.connectionState).toBe('resuming');
  expect(['network', 'signal']).toContain(resuming.resumeReason);
  await page.waitForTimeout(SLEEP_MS);
  await page.context().setOffline(false);
  const back = Date.now();

  await eventually(async () => expect((await snapshot(page)).connectionState).toBe('connected'), 60_000);
  await eventually(async () => expect((await snapshot(page)).agentState).toBe('listening'), 60_000);
  const connectedAfterMs = Date.now() - back;
  const had = (await snapshot(page)).transcriptions as Line[];
  // Each line once (upserted by id and speaker), in the agent's order.
  expect(new Set(had.map(key)).size).toBe(had.length);
  const times = had.map((line) => Date.parse(line.created_at));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  // The agent's own log as the oracle: nothing it sent is missing, unfinished or different on the page.
  await page.evaluate(() => window.connector.sendData('transcript_resume', JSON.stringify({ after: null })));
  await eventually(async () => {
    const sent = (await snapshot(page)).transcriptions as Line[];
    const seen = new Map(had.map((line) => [key(line), line]));
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.filter((line) => seen.get(key(line))?.text !== line.text || (line.final && !seen.get(key(line))?.final))).toEqual([]);
  }, 10_000);
  console.log(
    `[long sleep] resuming (${resuming.resumeReason}); connected ${connectedAfterMs} ms after the network came back (loaded machine); lines ${before} before, ${had.length} after`,
  );
  const statuses = (await page.evaluate(() => window.connector.history())).connectionStates;
  expect(statuses).toContain('resuming');
  expect(statuses.at(-1)).toBe('connected');
  await page.evaluate(() => window.connector.disconnect());
});
