import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { wavFile } from '@palaver/sdk-core/testing';
import { startVoiceDemo, type VoiceDemo } from '../../examples/voice-demo/demo-server.js';
import { withChromium } from '../media/support/chromium.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';
import { requireSpeechToText, withSpeakingChromium } from './support/speaking-chromium.js';

/** What the fake microphone says, over and over, with a pause after each time. */
const SPOKEN = 'please tell me about the weather';

interface DemoFixtures {
  platform: { server: PalaverServer; demo: VoiceDemo };
  /** Chromium whose fake microphone says {@link SPOKEN} again and again. */
  speakingBrowser: Browser;
  /** Chromium whose fake microphone is silent (typed turns only). */
  quietBrowser: Browser;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const test = base.extend<{}, DemoFixtures>({
  platform: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({ env: {}, config: { logLevel: 'warn' } });
      const platformUrl = await server.listen(0, '127.0.0.1');
      const demo = await startVoiceDemo({ platformUrl, apiKey: server.apiKey });
      await use({ server, demo });
      await demo.close();
      await server.close();
    },
    { scope: 'worker' },
  ],
  speakingBrowser: [
    // Flite speech made by the platform itself, then 3 s of silence, looped by Chromium.
    async ({ platform }, use) => withSpeakingChromium(platform.server, SPOKEN, 3, use),
    { scope: 'worker' },
  ],
  quietBrowser: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => withChromium(wavFile(new Int16Array(16_000 * 5), 16_000), use),
    { scope: 'worker' },
  ],
});

test.skip(!chromiumAvailable(), 'Debian Chromium (/usr/bin/chromium) is not installed');

async function openDemo(browser: Browser, url: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  await page.getByTestId('call').click();
  await expect(page.getByTestId('connection-state')).toHaveText('connected', { timeout: 20_000 });
  return page;
}

test('the demo page calls the agent: greeting, a typed question answered, hang up', async ({ platform, quietBrowser }) => {
  const page = await openDemo(quietBrowser, platform.demo.url);
  const transcript = page.getByTestId('transcript');
  await expect(transcript).toContainText('I am the Palaver demo agent', { timeout: 20_000 });
  await page.getByTestId('chat-input').fill('what is a typed question');
  await page.getByTestId('chat-input').press('Enter');
  // The offline model answers about what it was asked; its answer is a new agent line.
  await expect(transcript.locator('li.agent')).toHaveCount(2, { timeout: 20_000 });
  await expect(transcript.locator('li.agent').nth(1)).toContainText(/typed question/i, { timeout: 20_000 });
  const sessions = await platform.server.services.realtime.list({ project: platform.server.project, kind: 'key', human: null, credentialId: 'e2e' }, {});
  expect(sessions.values.some((session) => session.state === 'in_progress')).toBe(true);
  await page.getByTestId('hang-up').click();
  await expect(page.getByTestId('connection-state')).toHaveText('not_connected');
});

test('the demo page hears the microphone: the human line carries what was said, and the agent answers it', async ({ platform, speakingBrowser }) => {
  await requireSpeechToText(platform.server, test.skip);
  const page = await openDemo(speakingBrowser, platform.demo.url);
  const humanLines = page.getByTestId('transcript').locator('li.human');
  await expect(humanLines.first()).toContainText(/weather/i, { timeout: 30_000 });
  await expect(page.getByTestId('transcript').locator('li.agent')).toHaveCount(2, { timeout: 30_000 });
  // The turn latency as the page heard it, and the agent's own timings of that turn.
  const latency = page.getByTestId('turn-latency').first();
  await expect(latency).toHaveText(/^\d+ ms$/, { timeout: 20_000 });
  const heardMs = Number((await latency.textContent())!.replace(' ms', ''));
  const row = (await page.getByTestId('turn-latencies').locator('li').first().textContent())!;
  console.log(`demo turn latency: ${row}`);
  expect(heardMs).toBeGreaterThan(50);
  expect(heardMs).toBeLessThan(3000);
  await expect(page.getByTestId('turn-latencies').locator('li').first()).toContainText('at the agent');
  await page.screenshot({ path: test.info().outputPath('voice-demo-latency.png'), fullPage: true });
  await page.getByTestId('hang-up').click();
});
