import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { createClient } from '@palaver/sdk-core';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { wavFile } from '@palaver/sdk-core/testing';
import { startAppRunDemo, type AppRunDemo } from '../../examples/app-run-demo/demo-server.js';
import { withChromium } from '../media/support/chromium.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';
import { requireSpeechToText, withSpeakingChromium } from './support/speaking-chromium.js';

/** What the fake microphone says, over and over, with a pause after each time. */
const SPOKEN = 'please tell me about the weather';

interface DemoFixtures {
  platform: { server: PalaverServer; demo: AppRunDemo };
  /** Chromium whose fake microphone says {@link SPOKEN} again and again. */
  speakingBrowser: Browser;
  /** Chromium whose fake microphone is silent (typed messages only). */
  quietBrowser: Browser;
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
  quietBrowser: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => withChromium(wavFile(new Int16Array(16_000 * 5), 16_000), use),
    { scope: 'worker' },
  ],
});

test.skip(!chromiumAvailable(), 'Debian Chromium (/usr/bin/chromium) is not installed');

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Screenshots of the demo's states go here (reviewed by hand; CI keeps them as artifacts). */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`app-run-demo-${name}.png`), fullPage: true });
}

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

async function openDemo(browser: Browser, url: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(url);
  // The graph is read from the platform with the visitor's usage token, then drawn.
  await expect(page.getByTestId('graph').locator('[data-node]')).not.toHaveCount(0, { timeout: 20_000 });
  return page;
}

/** Starts a run, holding the platform's answer to `POST /v1/app/run` until the starting state was looked at. */
async function startHeld(page: Page, whileStarting: () => Promise<void>): Promise<void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/v1/app/run', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByTestId('start').click();
  await expect(page.getByTestId('connection-state')).toHaveText('Starting the app…');
  await whileStarting();
  release();
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
  await page.unroute('**/v1/app/run');
}

/** Types a message and waits for the offline model's echo of it. */
async function typeAndHearBack(page: Page, text: string, answers: number): Promise<void> {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
  const conversation = page.getByTestId('conversation');
  await expect(conversation.locator('li.user .words').last()).toHaveText(text, { timeout: 20_000 });
  await expect(conversation.locator('li.assistant')).toHaveCount(answers, { timeout: 30_000 });
  await expect(conversation.locator('li.assistant').last()).toContainText(text);
}

test('the demo walks through a run: the graph before it starts, states in words, a typed message answered, a pad applied, the conversation kept after leaving', async ({
  platform,
  quietBrowser,
}) => {
  const page = await openDemo(quietBrowser, platform.demo.url, DESKTOP);
  await expect(page.getByTestId('connection-state')).toHaveText('Ready to start');

  // The drawing is the app's own graph: every node, every link.
  const app = await createClient({ baseUrl: platform.server.url, apiKey: platform.server.apiKey }).apps.retrieve(platform.demo.app);
  const nodes = (app.graph as { nodes: Array<{ id: string; type: string; pads: Array<{ next_pads?: unknown[] }> }> }).nodes.filter(
    (node) => node.type !== 'Comment',
  );
  const graph = page.getByTestId('graph');
  expect(await graph.locator('[data-node]').evaluateAll((shapes) => shapes.map((shape) => shape.getAttribute('data-node')))).toEqual(
    nodes.map((node) => node.id),
  );
  await expect(graph.locator('[data-link]')).toHaveCount(nodes.flatMap((node) => node.pads.flatMap((pad) => pad.next_pads ?? [])).length);
  await expect(graph.locator('[data-node="llm"] [data-pad="text_stream"]')).toHaveText('text_stream');
  await expect(page.getByTestId('pad-system_prompt.content')).toHaveValue(/helpful voice assistant/);
  await expect(page.getByTestId('pad-system_prompt.content')).toBeDisabled();
  await expect(page.getByTestId('pad-llm.model')).toHaveValue('builtin-offline');
  await shot(page, 'desktop-1-before');

  await startHeld(page, () => shot(page, 'desktop-2-connecting'));
  await expect(page.getByTestId('connection-state')).toHaveText('Listening');
  const runId = (await page.getByTestId('run-id').textContent())!;
  expect(platform.server.services.appRuns.hosts(runId)).toBe(true);

  // Typed words enter the conversation through the graph's user message node; the offline model echoes them.
  await typeAndHearBack(page, 'what is a typed question', 1);

  // A property pad of the running graph, set from its control: the graph's system message follows.
  await page.getByTestId('pad-system_prompt.content').fill('You are a pirate. Answer like one.');
  await page.getByTestId('apply-system_prompt.content').click();
  await expect(page.getByTestId('pad-value-system_prompt.context_message')).toHaveText('system: You are a pirate. Answer like one.', { timeout: 10_000 });
  await expect(page.getByTestId('pad-system_prompt.content')).toHaveValue('You are a pirate. Answer like one.');
  await expect(page.getByTestId('apply-system_prompt.content')).toBeDisabled();
  await expect(page.getByTestId('pad-value-context.source')).toHaveText('3 messages');
  await shot(page, 'desktop-3-live');

  // Leaving: the end in words, and the conversation stays.
  await page.getByTestId('leave').click();
  await expect(page.getByTestId('ended')).toHaveText('The run ended: you left.');
  await expect(page.getByTestId('connection-state')).toHaveText('Not running');
  await expect(page.getByTestId('conversation').locator('li.user .words')).toHaveText(['what is a typed question']);
  await expect(page.getByTestId('conversation').locator('li.assistant')).toHaveCount(1);
  await expect(page.getByTestId('chat-input')).toHaveCount(0);
  await expect(page.getByTestId('start')).toHaveText('Start again');
  await shot(page, 'desktop-4-ended');

  // Until a new run starts: its conversation begins empty.
  await page.getByTestId('start').click();
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
  await expect(page.getByTestId('conversation')).toHaveCount(0);
  await expect(page.getByTestId('ended')).toHaveCount(0);
  await page.getByTestId('leave').click();
});

test('on a phone: every state fits the screen, and the graph is drawn top to bottom', async ({ platform, quietBrowser }) => {
  const page = await openDemo(quietBrowser, platform.demo.url, PHONE);
  await expect(page.getByTestId('graph')).toHaveClass(/down/);
  const fits = async () => {
    const overflow = await page.evaluate(() => ({
      by: document.documentElement.scrollWidth - window.innerWidth,
      widest: [...document.querySelectorAll('body *')]
        .filter((element) => !element.closest('details:not([open])'))
        .map((element) => [String(element.getAttribute('class') || element.tagName), Math.round(element.getBoundingClientRect().right)] as const)
        .filter(([, right]) => right > window.innerWidth)
        .slice(0, 5),
    }));
    expect(overflow).toEqual({ by: 0, widest: [] });
  };
  await fits();
  await shot(page, 'phone-1-before');
  await startHeld(page, async () => {
    await fits();
    await shot(page, 'phone-2-connecting');
  });
  await typeAndHearBack(page, 'hello from a phone', 1);
  await fits();
  await shot(page, 'phone-3-live');
  await page.getByTestId('leave').click();
  await expect(page.getByTestId('ended')).toHaveText('The run ended: you left.');
  await expect(page.getByTestId('conversation').locator('li')).not.toHaveCount(0);
  await fits();
  await shot(page, 'phone-4-ended');
});

test('a problem is said in words', async ({ platform, quietBrowser }) => {
  const page = await (await quietBrowser.newContext({ viewport: DESKTOP })).newPage();
  await page.route('**/api/run', (route) =>
    route.fulfill({
      status: 502,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'could not mint a usage token: the platform refused the API key' }),
    }),
  );
  await page.goto(platform.demo.url);
  await expect(page.getByTestId('problem')).toHaveText(
    'The demo backend could not open a visit (502): could not mint a usage token: the platform refused the API key',
  );
  await expect(page.getByTestId('start')).toBeDisabled();
});

test('the Simple Voice AI template hears the microphone and answers aloud, and the page says what it is doing', async ({ platform, speakingBrowser }) => {
  await requireSpeechToText(platform.server, (condition, reason) => test.skip(condition, reason));
  const page = await openDemo(speakingBrowser, platform.demo.url, DESKTOP);
  await page.getByTestId('start').click();
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });

  // The human's words, as STT heard them, enter the LLM context; the answer follows and is spoken.
  const conversation = page.getByTestId('conversation');
  await expect(conversation.locator('li.user').first()).toContainText(/weather/i, { timeout: 30_000 });
  await expect(page.getByTestId('connection-state')).toHaveText(/^(Hearing you…|Thinking…|Speaking)$/, { timeout: 30_000 });
  const loudest = await page.evaluate(loudestAgentAudio, 8000);
  console.log(`app run demo: the answer played at RMS ${loudest.toFixed(3)}`);
  expect(loudest).toBeGreaterThan(0.01);
  await expect(conversation.locator('li.assistant').first()).toContainText(/weather/i, { timeout: 30_000 });
  await shot(page, 'desktop-5-spoken');
  await page.getByTestId('leave').click();
  await expect(page.getByTestId('ended')).toHaveText('The run ended: you left.');
});
