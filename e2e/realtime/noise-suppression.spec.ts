import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { createClient } from '@palaver/sdk-core';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { withChromium } from '../media/support/chromium.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';
import { requireSpeechToText } from '../demo/support/speaking-chromium.js';
import { noisyMicrophone } from '../support/noisy-speech.js';
import { serveConnectorPage } from './support/connector-page.js';

/**
 * Noise suppression in the browser (issue 30 part 2, decision 0116): the connector runs the microphone through RNNoise
 * (WebAssembly from the package, no CDN) as a livekit-client TrackProcessor, switched on and off live, and the
 * platform's agent keeps hearing the speech. The fake microphone says one sentence every few seconds over pink noise
 * at 10 dB SNR.
 */
const SENTENCE = 'please tell me about the weather';
const WORDS = SENTENCE.split(' ');

interface Fixtures {
  platform: { server: PalaverServer; pageUrl: string; close(): Promise<void> };
}
interface TestFixtures {
  noisyBrowser: Browser;
}

const test = base.extend<TestFixtures, Fixtures>({
  platform: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({ env: {}, config: { logLevel: 'warn' } });
      await server.listen(0, '127.0.0.1');
      const page = await serveConnectorPage('connector');
      await use({ server, pageUrl: page.url, close: page.close });
      await page.close();
      await server.close();
    },
    { scope: 'worker' },
  ],
  noisyBrowser: async ({ platform }, use) => {
    const { wav } = await noisyMicrophone(platform.server, [SENTENCE], { snrDb: 10, pauseSeconds: 4 });
    await withChromium(wav, use);
  },
});

test.skip(!chromiumAvailable(), 'Debian Chromium (/usr/bin/chromium) is not installed');

type Snapshot = ReturnType<Window['connector']['snapshot']>;

const snapshot = (page: Page): Promise<Snapshot> => page.evaluate(() => window.connector.snapshot());
/** How many of the sentence's words a line has. */
const wordsHeard = (line: string) => WORDS.filter((word) => line.toLowerCase().split(/\s+/).includes(word)).length;
/** The sentence's words in everything the agent transcribed of the human so far (interim lines too: in noise a turn may not end). */
const sentenceWords = async (page: Page) =>
  (await snapshot(page)).transcriptions.filter((line) => !line.agent).reduce((total, line) => total + wordsHeard(line.text), 0);

/**
 * Waits until the agent has heard at least half the sentence more than `before`; returns the new total. In 10 dB of
 * noise the offline recogniser catches 2-4 of the six words a time, so a phase may need several of the sentence's
 * repeats (one every ~6 s): up to a minute each.
 */
async function heardMore(page: Page, before: number): Promise<number> {
  await expect.poll(() => sentenceWords(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(before + WORDS.length / 2);
  return sentenceWords(page);
}

test('noise suppression turns on and off live, and the agent hears the speech each way', async ({ platform, noisyBrowser }) => {
  test.setTimeout(240_000);
  await requireSpeechToText(platform.server, test.skip);
  const client = createClient({ baseUrl: platform.server.url!, apiKey: platform.server.apiKey });
  const { connection_details } = await client.realtime.start({
    config: { general: { time_limit_s: 180 }, input: { interruptable: false }, generative: { llm: 'builtin-offline' }, output: {} },
  });
  const page = await (await noisyBrowser.newContext()).newPage();
  await page.goto(platform.pageUrl);
  await page.waitForFunction(() => 'connector' in window);
  const connected = await page.evaluate(
    ([url, token]) => window.connector.connect(url!, token!, { noiseSuppression: true }),
    [connection_details.url, connection_details.token],
  );
  expect(connected.ok).toBe(true);

  // On from the start: it runs once the microphone is published, and the agent hears the sentence through it.
  await expect.poll(async () => (await snapshot(page)).noiseSuppression, { timeout: 20_000 }).toEqual({ wanted: true, active: true });
  let heard = await heardMore(page, 0);

  // Off, live: the raw microphone again, still heard.
  await page.evaluate(() => window.connector.setNoiseSuppression(false));
  expect((await snapshot(page)).noiseSuppression).toEqual({ wanted: false, active: false });
  heard = await heardMore(page, heard);

  // On again, live.
  await page.evaluate(() => window.connector.setNoiseSuppression(true));
  expect((await snapshot(page)).noiseSuppression).toEqual({ wanted: true, active: true });
  await heardMore(page, heard);
  const lines = (await snapshot(page)).transcriptions.filter((line) => !line.agent).map((line) => `${line.final ? 'final' : 'interim'}: ${line.text}`);
  console.log(`[noise-suppression] the human's lines (on, off, on again):\n  ${lines.join('\n  ')}`);

  const history = await page.evaluate(() => window.connector.history());
  expect(history.errors).toEqual([]);
  await page.evaluate(() => window.connector.disconnect());
});
