import { test as base, expect, type Browser } from '@playwright/test';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { startAppRunDemo, type AppRunDemo } from '../../examples/app-run-demo/demo-server.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';
import { requireSpeechToText, withSpeakingChromium } from './support/speaking-chromium.js';

/** What the fake microphone says, over and over, with a pause after each time. */
const SPOKEN = 'please tell me about the weather';

interface DemoFixtures {
  platform: { server: PalaverServer; demo: AppRunDemo };
  /** Chromium whose fake microphone says {@link SPOKEN} again and again. */
  speakingBrowser: Browser;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const test = base.extend<{}, DemoFixtures>({
  platform: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({ env: {}, config: { logLevel: 'warn' } });
      const platformUrl = await server.listen(0, '127.0.0.1');
      const demo = await startAppRunDemo({ platformUrl, apiKey: server.apiKey });
      await use({ server, demo });
      await demo.close();
      await server.close();
    },
    { scope: 'worker' },
  ],
  speakingBrowser: [async ({ platform }, use) => withSpeakingChromium(platform.server, SPOKEN, 4, use), { scope: 'worker' }],
});

test.skip(!chromiumAvailable(), 'Debian Chromium (/usr/bin/chromium) is not installed');

/** The loudest the page's audio element plays over `durationMs` (RMS of the time-domain signal, 0..1). */
function loudestAgentAudio(durationMs: number): Promise<number> {
  return (async () => {
    const element = document.querySelector('audio');
    const stream = element?.srcObject;
    if (!(stream instanceof MediaStream)) return -1;
    const context = new AudioContext();
    await context.resume();
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    context.createMediaStreamSource(stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    let loudest = 0;
    const end = performance.now() + durationMs;
    while (performance.now() < end) {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      loudest = Math.max(loudest, Math.sqrt(sum / samples.length));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await context.close();
    return loudest;
  })();
}

test('the app run demo: the Simple Voice AI template hears the microphone and answers aloud; its pads show the conversation and take a new system prompt', async ({ platform, speakingBrowser }) => {
  await requireSpeechToText(platform.server, test.skip);
  const page = await (await speakingBrowser.newContext()).newPage();
  await page.goto(platform.demo.url);
  await page.getByTestId('start').click();
  await expect(page.getByTestId('connection-state')).toHaveText('connected', { timeout: 20_000 });
  const runId = (await page.getByTestId('run-id').textContent())!;
  expect(platform.server.services.appRuns.hosts(runId)).toBe(true);
  // usePad: a property pad's value shows as soon as the run is joined.
  await expect(page.getByTestId('system-prompt')).toContainText('helpful voice assistant');

  // The human's words, as STT heard them, enter the LLM context; the answer follows and is spoken.
  const conversation = page.getByTestId('conversation');
  await expect(conversation.locator('li.user').first()).toContainText(/weather/i, { timeout: 30_000 });
  const loudest = await page.evaluate(loudestAgentAudio, 8000);
  console.log(`app run demo: the answer played at RMS ${loudest.toFixed(3)}`);
  expect(loudest).toBeGreaterThan(0.01);
  await expect(conversation.locator('li.assistant').first()).toContainText(/\S/, { timeout: 30_000 });
  await page.screenshot({ path: test.info().outputPath('app-run-demo.png'), fullPage: true });

  // A property pad of the running graph, set from the page: the run's value changes and comes back to usePad.
  await page.getByTestId('system-prompt-input').fill('You are a pirate. Answer like one.');
  await page.getByTestId('system-prompt-input').press('Enter');
  await expect(page.getByTestId('system-prompt')).toHaveText('You are a pirate. Answer like one.', { timeout: 10_000 });

  await page.getByTestId('leave').click();
  await expect(page.getByTestId('connection-state')).toHaveText('not_connected');
  await expect(page.getByTestId('ended')).toHaveText('Run left: client');
});
