import { readFileSync } from 'node:fs';
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

/** Screenshots of the demo's states go here (reviewed by hand; CI keeps them as artifacts). */
const shots = (name: string) => test.info().outputPath(`${name}.png`);

async function openDemo(browser: Browser, url: string, viewport = { width: 1100, height: 820 }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(url);
  // The pickers are filled from the platform with the visitor's usage token.
  await expect(page.getByTestId('persona').locator('option')).not.toHaveCount(1, { timeout: 20_000 });
  return page;
}

async function startCall(page: Page): Promise<void> {
  await page.getByTestId('call').click();
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
}

test('the demo walks through a call: pickers, greeting, a typed turn, mute, device switch, hang up, ended state', async ({ platform, quietBrowser }) => {
  const page = await openDemo(quietBrowser, platform.demo.url);
  await expect(page.getByTestId('connection-state')).toHaveText('Not in a call');
  await expect(page.getByTestId('persona')).toContainText('Ada, a patient tutor');
  await expect(page.getByTestId('voice').locator('option')).not.toHaveCount(1);
  await page.getByTestId('persona').selectOption({ label: 'Ada, a patient tutor' });
  await page.screenshot({ path: shots('01-before-the-call'), fullPage: true });

  // Keyboard only: the call button is reachable and starts the call.
  await page.getByTestId('call').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
  const transcript = page.getByTestId('transcript');
  await expect(transcript).toContainText('I am the Palaver demo agent', { timeout: 20_000 });
  await expect(page.getByTestId('connection-state')).toHaveText(/Listening|Speaking/);
  await expect(page.getByTestId('time-left')).toHaveText(/^\d+:\d\d left$/);
  await expect(page.getByTestId('persona')).toBeDisabled();
  const sessions = await platform.server.services.realtime.list({ project: platform.server.project, kind: 'key', human: null, credentialId: 'e2e' }, {});
  const live = sessions.values.find((session) => session.state === 'in_progress');
  expect(live?.config.generative.persona?.name).toBe('Ada, a patient tutor');
  await page.screenshot({ path: shots('02-in-the-call'), fullPage: true });

  // A typed turn: the visitor's line, then the agent's answer.
  await page.getByTestId('chat-input').fill('what is a typed question');
  await page.getByTestId('chat-input').press('Enter');
  await expect(transcript.locator('li.human')).toContainText('what is a typed question', { timeout: 20_000 });
  await expect(transcript.locator('li.agent')).toHaveCount(2, { timeout: 20_000 });
  await expect(transcript.locator('li.agent').nth(1)).toContainText(/typed question/i, { timeout: 20_000 });
  await page.screenshot({ path: shots('03-typed-turn'), fullPage: true });

  // Microphone off, and a live microphone switch (Chromium's fake device) without leaving the call.
  await page.getByTestId('microphone').click();
  await expect(page.getByTestId('muted')).toBeVisible();
  await expect(page.getByTestId('microphone')).toHaveAttribute('aria-pressed', 'true');
  await page.screenshot({ path: shots('04-muted'), fullPage: true });
  await page.getByTestId('microphone').click();
  await expect(page.getByTestId('muted')).toHaveCount(0);
  const microphones = await page
    .getByTestId('microphone-device')
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  const device = microphones.find((value) => value !== '');
  if (device) {
    await page.getByTestId('microphone-device').selectOption(device);
    await expect(page.getByTestId('problem')).toHaveCount(0);
  }
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');

  // Hang up: a clean ended state, no countdown, every line finished, and a way to call again.
  await page.getByTestId('hang-up').click();
  await expect(page.getByTestId('ended')).toHaveText('You hung up.');
  await expect(page.getByTestId('time-left')).toHaveCount(0);
  await expect(transcript.locator('li[data-final="false"]')).toHaveCount(0);
  await expect(page.getByTestId('call')).toHaveText('Call again');
  await page.screenshot({ path: shots('05-ended'), fullPage: true });
});

test('text and voice in one call: start text only, the microphone on and off mid-call, the agent silenced while its answers keep coming as text', async ({
  platform,
  quietBrowser,
}) => {
  const page = await openDemo(quietBrowser, platform.demo.url);
  await page.getByTestId('start-microphone').uncheck();
  await page.screenshot({ path: shots('10-text-only-before-the-call'), fullPage: true });
  await startCall(page);
  const transcript = page.getByTestId('transcript');
  await expect(transcript).toContainText('I am the Palaver demo agent', { timeout: 20_000 });
  // Text only: nothing was published.
  await expect(page.getByTestId('muted')).toBeVisible();
  await expect(page.getByTestId('microphone')).toHaveText('Microphone on');
  const publishedMicrophones = async () => {
    const [session] = (
      await platform.server.services.realtime.list({ project: platform.server.project, kind: 'key', human: null, credentialId: 'e2e' }, {})
    ).values.filter((candidate) => candidate.state === 'in_progress');
    const room = platform.server.services.media.endpoint?.rooms.get(session!.id);
    return (
      room
        ?.list()
        .filter((member) => member.state.identity !== 'agent')
        .flatMap((member) => [...member.state.tracks.values()].map((track) => track.info.muted)) ?? []
    );
  };
  expect(await publishedMicrophones()).toEqual([]);

  // The microphone on mid-call: published and unmuted; off again: muted.
  await page.getByTestId('microphone').click();
  await expect(page.getByTestId('muted')).toHaveCount(0);
  await expect(page.getByTestId('microphone')).toHaveText('Microphone off');
  await expect.poll(publishedMicrophones).toEqual([false]);
  await page.getByTestId('microphone').click();
  await expect(page.getByTestId('muted')).toBeVisible();
  await expect.poll(publishedMicrophones).toEqual([true]);

  // The agent silenced: its audio element is muted, and a typed question is still answered, in text.
  await page.getByTestId('agent-speech').click();
  await expect(page.getByTestId('agent-silenced')).toBeVisible();
  await expect(page.getByTestId('agent-speech')).toHaveAttribute('aria-pressed', 'true');
  const agentAudioMuted = () => page.evaluate(() => [...document.querySelectorAll('audio')].map((element) => element.muted));
  await expect.poll(agentAudioMuted).toEqual([true]);
  await page.getByTestId('chat-input').fill('what is a silent question');
  await page.getByTestId('chat-input').press('Enter');
  await expect(transcript.locator('li.agent')).toHaveCount(2, { timeout: 20_000 });
  await expect(transcript.locator('li.agent').nth(1)).toContainText(/silent question/i, { timeout: 20_000 });
  await page.screenshot({ path: shots('11-agent-silenced-text-answers'), fullPage: true });
  await page.getByTestId('agent-speech').click();
  await expect(page.getByTestId('agent-silenced')).toHaveCount(0);
  await expect.poll(agentAudioMuted).toEqual([false]);
  await page.getByTestId('hang-up').click();
});

test('a long conversation on a 1280x800 screen: the transcript scrolls in its own area, the message box and the newest line stay in view; a cut answer is marked interrupted', async ({
  platform,
  quietBrowser,
}) => {
  test.setTimeout(240_000);
  const page = await openDemo(quietBrowser, platform.demo.url, { width: 1280, height: 800 });
  await startCall(page);
  const transcript = page.getByTestId('transcript');
  const input = page.getByTestId('chat-input');
  const answers = transcript.locator('li.agent');
  const saidToTheEnd = async () => expect(answers.last()).toHaveAttribute('data-final', 'true', { timeout: 30_000 });
  const ask = async (text: string) => {
    const before = await answers.count();
    await input.fill(text);
    await input.press('Enter');
    await expect(answers).toHaveCount(before + 1, { timeout: 20_000 });
  };
  await expect(transcript).toContainText('I am the Palaver demo agent', { timeout: 20_000 });
  await saidToTheEnd();
  for (const question of [
    'what is the weather like',
    'and tomorrow morning',
    'should I take an umbrella',
    'what about the weekend',
    'is it windy by the sea',
  ]) {
    await ask(question);
    await saidToTheEnd();
  }
  // Typed over: the answer being said is cut where the visitor interrupted it.
  await ask('tell me a long story about the ships in the harbour');
  await page.waitForTimeout(1500);
  await ask('stop, one more question');
  await saidToTheEnd();

  const cut = transcript.locator('li[data-interrupted="true"]');
  await expect(cut).toHaveCount(1);
  await expect(cut.getByTestId('interrupted')).toHaveText('interrupted');
  const words = (await cut.locator('.words').textContent())!;
  expect(words).toMatch(/…"?$/);
  expect(words.split('"').length % 2, `an open quote left in: ${words}`).toBe(1);
  await expect(transcript.locator('li[data-interrupted="false"]').last()).not.toContainText('…');

  // The page does not scroll: the transcript does, inside its area, showing the newest line above the message box.
  await expect(input).toBeInViewport({ ratio: 1 });
  await expect(transcript.locator('li').last()).toBeInViewport();
  await expect(transcript.locator('li').first()).not.toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: shots('09-long-conversation-1280x800') });

  // Typing again keeps the box in view.
  await ask('thank you');
  await expect(input).toBeInViewport({ ratio: 1 });
  await expect(transcript.locator('li').last()).toBeInViewport();
  await page.getByTestId('hang-up').click();
});

test('the last minute is a warning, and the page fits a phone', async ({ platform, quietBrowser }) => {
  const page = await openDemo(quietBrowser, `${platform.demo.url}?time_limit_s=65`, { width: 390, height: 844 });
  await startCall(page);
  await expect(page.getByTestId('time-left')).toHaveText(/^\d:\d\d left: the call ends soon$/, { timeout: 15_000 });
  await expect(page.getByTestId('time-left')).toHaveClass(/warning/);
  await expect(page.getByTestId('transcript')).toContainText('I am the Palaver demo agent', { timeout: 20_000 });
  await page.screenshot({ path: shots('06-phone-time-warning'), fullPage: true });
  // Nothing wider than the screen.
  const overflow = await page.evaluate(() => ({
    by: document.documentElement.scrollWidth - window.innerWidth,
    widest: [...document.querySelectorAll('body *')]
      .map((element) => [element.className || element.tagName, Math.round(element.getBoundingClientRect().right)] as const)
      .filter(([, right]) => right > window.innerWidth)
      .slice(0, 5),
  }));
  expect(overflow).toEqual({ by: 0, widest: [] });
  await page.getByTestId('hang-up').click();
});

test('a problem is said in words', async ({ platform, quietBrowser }) => {
  const page = await (await quietBrowser.newContext()).newPage();
  await page.route('**/api/session', (route) => route.fulfill({ status: 502, body: 'the platform refused the API key' }));
  await page.goto(platform.demo.url);
  await expect(page.getByTestId('problem')).toHaveText('The demo backend could not open a visit (502): the platform refused the API key');
  await expect(page.getByTestId('call')).toBeDisabled();
  await page.screenshot({ path: shots('07-problem'), fullPage: true });
});

test('the demo page hears the microphone: the human line carries what was said, and the agent answers it', async ({ platform, speakingBrowser }) => {
  await requireSpeechToText(platform.server, test.skip);
  const page = await openDemo(speakingBrowser, platform.demo.url);
  await startCall(page);
  const humanLines = page.getByTestId('transcript').locator('li.human');
  await expect(humanLines.first()).toContainText(/weather/i, { timeout: 30_000 });
  await expect(page.getByTestId('transcript').locator('li.agent')).toHaveCount(2, { timeout: 30_000 });
  // The turn latency in plain words, as the page heard it; the agent's own timings of the turn on hover.
  const latency = page.getByTestId('turn-latency');
  await expect(latency).toHaveText(/^Last turn: answered \d+\.\d\d s after you stopped$/, { timeout: 20_000 });
  await expect(latency).toHaveAttribute('title', /^Heard here: \d+ ms from the end of your speech/);
  // The figure shown is the one the page measured for that turn (how large it is: `pnpm bench voice-agent`).
  const heardMs = Number(await latency.getAttribute('data-ms'));
  expect(Number.isInteger(heardMs), `data-ms ${heardMs}`).toBe(true);
  expect(heardMs).toBeGreaterThan(0);
  await expect(latency).toHaveAttribute('title', new RegExp(`^Heard here: ${heardMs} ms from the end of your speech`));
  // Each stage the agent timed, and how the turn detector read the words at the pause that ended the turn
  // (adaptive turn detection, the default).
  await expect(latency).toHaveAttribute('title', /At the agent: \d+ ms\n {2}end of turn: \d+ ms \(read as [a-z ]+\)/, { timeout: 20_000 });
  console.log(`demo turn latency: ${await latency.textContent()} | ${(await latency.getAttribute('title'))!.replaceAll('\n', ' | ')}`);
  await page.screenshot({ path: shots('08-spoken-turn-latency'), fullPage: true });
  await page.getByTestId('hang-up').click();
});

// Issue 30: noise suppression switched before and during a call, and a recorded call downloaded after it (decisions 0112, 0116).
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
