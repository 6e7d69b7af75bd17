import { fileURLToPath } from 'node:url';
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { createClient } from '@palaver/sdk-core';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { withChromium } from '../media/support/chromium.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';
import { requireSpeechToText, withSpeakingChromium } from '../demo/support/speaking-chromium.js';
import { bundleForPage, servePage } from '../support/bundled-page.js';
import { wavFile } from '@palaver/sdk-core/testing';

/**
 * A LiveKit user's app, built only on `@livekit/components-react` 2.x, talking to a Palaver realtime session: the
 * agent's states, transcriptions attributed to whoever spoke, the legacy transcriptions `useVoiceAssistant` reads,
 * `useChat().send()` as a typed turn, and the speaking indicators (`useIsSpeaking`, `useSpeakingParticipants`) fed by
 * the endpoint's `SpeakersChanged`.
 */
interface Fixtures {
  platform: { server: PalaverServer; pageUrl: string };
  speakingBrowser: Browser;
  quietBrowser: Browser;
}

const SPOKEN = 'please tell me about the weather';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const test = base.extend<{}, Fixtures>({
  platform: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({ env: {}, config: { logLevel: 'warn' } });
      await server.listen(0, '127.0.0.1');
      const page = await servePage(
        'livekit components',
        await bundleForPage(fileURLToPath(new URL('./support/livekit-components-page-entry.tsx', import.meta.url))),
      );
      await use({ server, pageUrl: page.url });
      await page.close();
      await server.close();
    },
    { scope: 'worker' },
  ],
  speakingBrowser: [async ({ platform }, use) => withSpeakingChromium(platform.server, SPOKEN, 3, use), { scope: 'worker' }],
  // eslint-disable-next-line no-empty-pattern
  quietBrowser: [async ({}, use) => withChromium(wavFile(new Int16Array(16_000 * 5), 16_000), use), { scope: 'worker' }],
});

test.skip(!chromiumAvailable(), 'Debian Chromium (/usr/bin/chromium) is not installed');

/** Starts a session for a new human and opens the components page on its connection details. */
async function openSession(platform: Fixtures['platform'], browser: Browser, audio: boolean): Promise<Page> {
  const client = createClient({ baseUrl: platform.server.url!, apiKey: platform.server.apiKey });
  const { connection_details } = await client.realtime.start({
    config: {
      general: { time_limit_s: 300 },
      input: { interruptable: true },
      generative: { llm: 'builtin-offline' },
      output: { answer_message: 'Hello from the Palaver agent.' },
    },
  });
  const page = await (await browser.newContext()).newPage();
  await page.goto(platform.pageUrl);
  await page.waitForFunction(() => 'setConnectionDetails' in window);
  await page.evaluate((details) => (window as unknown as { setConnectionDetails: (value: unknown) => void }).setConnectionDetails(details), {
    ...connection_details,
    audio,
  });
  return page;
}

test("useChat().send() is a typed turn: it comes back as the user's final transcription and the agent answers it", async ({ platform, quietBrowser }) => {
  const page = await openSession(platform, quietBrowser, false);
  const lines = page.getByTestId('transcriptions').locator('li');
  // The greeting, attributed to the agent participant; the state in LiveKit's words.
  await expect(lines.filter({ hasText: 'agent|true|' }).first()).toContainText('Hello from the Palaver agent', { timeout: 20_000 });
  await expect(page.getByTestId('state')).toHaveText(/listening|speaking|thinking/, { timeout: 20_000 });
  await page.waitForFunction(() => 'sendChat' in window);
  await page.evaluate(() => (window as unknown as { sendChat: (text: string) => Promise<unknown> }).sendChat('what is a typed question'));
  await expect(lines.filter({ hasText: 'user|true||what is a typed question' })).toHaveCount(1, { timeout: 20_000 });
  await expect(lines.filter({ hasText: 'agent|true|' })).toHaveCount(2, { timeout: 20_000 });
  await expect(lines.filter({ hasText: 'agent|true|' }).nth(1)).toContainText(/typed question/i);
  // Older hooks: useVoiceAssistant().agentTranscriptions from the legacy transcription packets.
  await expect(page.getByTestId('agent-transcriptions').locator('li').filter({ hasText: 'final|Hello from the Palaver agent' })).toHaveCount(1);
  await expect(
    page
      .getByTestId('agent-transcriptions')
      .locator('li')
      .filter({ hasText: /^final\|.*typed question/i }),
  ).toHaveCount(1);
});

test("the user's speech is transcribed as the user's, on their microphone track, and useTrackTranscription on it shows their words", async ({
  platform,
  speakingBrowser,
}) => {
  await requireSpeechToText(platform.server, test.skip);
  const page = await openSession(platform, speakingBrowser, true);
  await expect(page.getByTestId('mic-track')).toHaveText(/^TR_/, { timeout: 20_000 });
  const micTrack = await page.getByTestId('mic-track').textContent();
  const userLines = page
    .getByTestId('transcriptions')
    .locator('li')
    .filter({ hasText: `user|true|${micTrack}|` });
  // useTrackTranscription on the microphone: the user's words as legacy Transcription packets naming their own track.
  await expect(
    page
      .getByTestId('mic-transcription')
      .locator('li')
      .filter({ hasText: /^(interim|final)\|.*weather/i })
      .first(),
  ).toBeVisible({ timeout: 30_000 });
  // Under load a fragment may be heard first ('there'): one final line of the user's holds the sentence.
  await expect(userLines.filter({ hasText: /weather/i }).first()).toBeVisible({ timeout: 30_000 });
  await expect(
    page
      .getByTestId('mic-transcription')
      .locator('li')
      .filter({ hasText: /^final\|.*weather/i })
      .first(),
  ).toBeVisible({ timeout: 20_000 });
  // Chromium's RTP audio-level extension made the user a speaker, for themself too (livekit-client's local participant).
  await expect(page.getByTestId('me-speaking')).toHaveAttribute('data-changes', /^false true/, { timeout: 20_000 });
  // No transcription of the user's words is labelled as the agent's.
  const agentLines = await page.getByTestId('transcriptions').locator('li').filter({ hasText: 'agent|' }).allTextContents();
  expect(agentLines.filter((line) => line.includes(micTrack!))).toEqual([]);
});

test("useIsSpeaking and useSpeakingParticipants follow the agent's voice: speaking while it says its greeting, quiet after", async ({
  platform,
  quietBrowser,
}) => {
  const page = await openSession(platform, quietBrowser, false);
  const indicator = page.getByTestId('agent-speaking');
  await expect(indicator).toHaveAttribute('data-speaking', 'true', { timeout: 20_000 });
  await expect(page.getByTestId('speakers')).toHaveText('agent');
  await expect(page.getByTestId('transcriptions').locator('li').filter({ hasText: 'agent|true|' }).first()).toContainText('Hello from the Palaver agent', {
    timeout: 20_000,
  });
  await expect(indicator).toHaveAttribute('data-speaking', 'false', { timeout: 20_000 });
  await expect(indicator).toHaveAttribute('data-changes', /^false true( false true)* false$/);
  await expect(page.getByTestId('speakers')).toHaveText('');
});
