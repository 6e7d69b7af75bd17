import { readFileSync } from 'node:fs';
import { test as base, expect, type Browser } from '@playwright/test';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { wavFile } from '@palaver/sdk-core/testing';
import { startVoiceDemo, type VoiceDemo } from '../../examples/voice-demo/demo-server.js';
import { withChromium } from '../media/support/chromium.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';

/**
 * Issue 30 in the voice demo: noise suppression switched before and during a call, and a recorded call downloaded
 * after it (decisions 0112 and 0116).
 */
interface DemoFixtures {
  platform: { server: PalaverServer; demo: VoiceDemo };
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
  quietBrowser: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => withChromium(wavFile(new Int16Array(16_000 * 5), 16_000), use),
    { scope: 'worker' },
  ],
});

test.skip(!chromiumAvailable(), 'Debian Chromium (/usr/bin/chromium) is not installed');

test('a recorded call with noise suppression: switched live, then the recording of both sides downloaded after hanging up', async ({
  platform,
  quietBrowser,
}) => {
  const page = await (await quietBrowser.newContext({ acceptDownloads: true })).newPage();
  await page.goto(platform.demo.url);
  await expect(page.getByTestId('persona').locator('option')).not.toHaveCount(1, { timeout: 20_000 });

  await page.getByTestId('record').check();
  await page.getByTestId('noise-suppression').check();
  await page.getByTestId('call').click();
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
  await expect(page.getByTestId('noise-suppression-active')).toBeVisible({ timeout: 20_000 });
  // Off and on again during the call.
  await page.getByTestId('noise-suppression').uncheck();
  await expect(page.getByTestId('noise-suppression-active')).toHaveCount(0);
  await page.getByTestId('noise-suppression').check();
  await expect(page.getByTestId('noise-suppression-active')).toBeVisible({ timeout: 20_000 });

  // The agent's greeting and an answer go into the recording.
  const transcript = page.getByTestId('transcript');
  await expect(transcript).toContainText('I am the Palaver demo agent', { timeout: 20_000 });
  await page.getByTestId('chat-input').fill('hello there');
  await page.getByTestId('chat-input').press('Enter');
  await expect(transcript.locator('li.agent')).toHaveCount(2, { timeout: 20_000 });
  await expect(transcript.locator('li[data-final="false"]')).toHaveCount(0, { timeout: 30_000 });

  await page.getByTestId('hang-up').click();
  await expect(page.getByTestId('ended')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('download-recording').click()]);
  const file = readFileSync(await download.path());
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  expect(file.subarray(0, 4).toString()).toBe('RIFF');
  expect(view.getUint16(22, true)).toBe(2);
  expect(view.getUint32(24, true)).toBe(16_000);
  // Longer than the greeting and the answer the agent spoke (several seconds each).
  expect(view.getUint32(40, true) / 4 / 16_000).toBeGreaterThan(3);
  await expect(page.getByTestId('recording-note')).toHaveCount(0);
});
