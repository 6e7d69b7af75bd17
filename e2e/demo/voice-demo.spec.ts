import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { concatSamples, wavFile } from '@palaver/sdk-core/testing';
import { startVoiceDemo, type VoiceDemo } from '../../examples/voice-demo/demo-server.js';
import { withChromium } from '../media/support/chromium.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';

/** What the fake microphone says, over and over, with a pause after each time. */
const SPOKEN = 'please tell me about the weather';

/** A PCM16 mono WAV from the platform (44-byte header) with `seconds` of silence appended. */
function withTrailingSilence(wav: Uint8Array, seconds: number): Buffer {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const sampleRate = view.getUint32(24, true);
  const samples = new Int16Array(wav.slice(44).buffer);
  return wavFile(concatSamples([samples, new Int16Array(Math.round(sampleRate * seconds))]), sampleRate);
}

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
    async ({ platform }, use) => {
      // Flite speech made by the platform itself, then 3 s of silence, looped by Chromium.
      const speech = await platform.server.fetch(
        new Request('http://palaver.test/v1/voice/generate', {
          method: 'POST',
          headers: { 'x-api-key': platform.server.apiKey, 'content-type': 'application/json', accept: 'audio/wav' },
          body: JSON.stringify({ text: SPOKEN, voice_id: 'flite-slt' }),
        }),
      );
      await withChromium(withTrailingSilence(new Uint8Array(await speech.arrayBuffer()), 3), use);
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
  const stt = await platform.server.services.speech.stt.status();
  if (!stt.available) {
    if (process.env.CI === 'true') throw new Error(`Required component missing in CI: speech-to-text (${stt.reason})`);
    test.skip(true, `no speech-to-text engine: ${stt.reason}`);
  }
  const page = await openDemo(speakingBrowser, platform.demo.url);
  const humanLines = page.getByTestId('transcript').locator('li.human');
  await expect(humanLines.first()).toContainText(/weather/i, { timeout: 30_000 });
  await expect(page.getByTestId('transcript').locator('li.agent')).toHaveCount(2, { timeout: 30_000 });
  await page.getByTestId('hang-up').click();
});
