import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { wavFile } from '@palaver/sdk-core/testing';
import { startVoiceDemo, type VoiceDemo } from '../../examples/voice-demo/demo-server.js';
import { withChromium } from '../media/support/chromium.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';

interface ResumeFixtures {
  platform: { server: PalaverServer; demo: VoiceDemo };
  /** Chromium whose fake microphone is silent (typed turns only). */
  quietBrowser: Browser;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const test = base.extend<{}, ResumeFixtures>({
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

/** Opens the demo in a call with the greeting said, recording every connection state the page shows. */
async function inACall(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext();
  // Keeps the page's websockets (LiveKit's signalling) reachable, to kill one as a proxy or a NAT timing out would.
  await context.addInitScript(() => {
    const sockets: WebSocket[] = [];
    const Original = window.WebSocket;
    (window as unknown as { liveSockets: WebSocket[] }).liveSockets = sockets;
    window.WebSocket = class extends Original {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        sockets.push(this);
      }
    };
  });
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByTestId('persona').locator('option')).not.toHaveCount(1, { timeout: 20_000 });
  await page.getByTestId('call').click();
  const state = page.getByTestId('connection-state');
  await expect(state).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
  await state.evaluate((element) => {
    const seen: string[] = [];
    (window as unknown as { statesSeen: string[] }).statesSeen = seen;
    new MutationObserver(() => seen.push(`${element.dataset.state}:${element.dataset.reason ?? ''}:${element.textContent}`)).observe(element, {
      attributes: true,
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  const agentLines = page.getByTestId('transcript').locator('li.agent');
  await expect(agentLines.last()).toHaveAttribute('data-final', 'true', { timeout: 30_000 });
  return page;
}

/** The transcript as the page shows it: [who, words, final] per line. */
const lines = (page: Page) =>
  page
    .getByTestId('transcript')
    .locator('li')
    .evaluateAll((items) => items.map((item) => [item.className, item.querySelector('.words')?.textContent ?? '', item.getAttribute('data-final')]));

const statesSeen = (page: Page) => page.evaluate(() => (window as unknown as { statesSeen: string[] }).statesSeen);

async function askThenDrop(page: Page, question: string, drop: () => Promise<void>, restore: () => Promise<void>): Promise<void> {
  const before = await lines(page);
  await page.getByTestId('chat-input').fill(question);
  await page.getByTestId('chat-input').press('Enter');
  // The human's line is back from the agent: it is answering now. The network goes while it does.
  await expect(page.getByTestId('transcript').locator('li.human').last()).toContainText(question, { timeout: 20_000 });
  await drop();
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'resuming', { timeout: 20_000 });
  await page.waitForTimeout(4_000);
  await restore();
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 30_000 });
  const agentLines = page.getByTestId('transcript').locator('li.agent');
  await expect(agentLines).toHaveCount(before.filter(([who]) => who === 'agent').length + 1, { timeout: 20_000 });
  await expect(agentLines.last()).toHaveAttribute('data-final', 'true', { timeout: 30_000 });
  await expect(agentLines.last()).toContainText(question, { timeout: 20_000 });
  const after = await lines(page);
  // Everything that was there is still there, in order, and the turn was added once: the question, then its answer.
  expect(after.slice(0, before.length)).toEqual(before);
  expect(after.slice(before.length).map(([who, words, final]) => [who, words?.includes(question), final])).toEqual([
    ['human', true, 'true'],
    ['agent', true, 'true'],
  ]);
}

test('the network drops while the agent answers: resuming shown, then every line once, in order', async ({ platform, quietBrowser }) => {
  const page = await inACall(quietBrowser, platform.demo.url);
  const context = page.context();
  await askThenDrop(
    page,
    'what happens when the network drops',
    () => context.setOffline(true),
    () => context.setOffline(false),
  );
  const seen = await statesSeen(page);
  // Chromium's offline emulation stops the signalling socket (the WebRTC data channel keeps going).
  expect(seen.some((entry) => /^resuming:(network|signal):Connection lost/.test(entry))).toBe(true);
  expect(seen.at(-1)).toMatch(/^connected:/);
});

test('the signalling socket is killed while the agent answers: resumed, every line once, in order', async ({ platform, quietBrowser }) => {
  const page = await inACall(quietBrowser, platform.demo.url);
  await askThenDrop(
    page,
    'what happens when the socket closes',
    () =>
      page.evaluate(() => {
        for (const socket of (window as unknown as { liveSockets: WebSocket[] }).liveSockets) if (socket.readyState === WebSocket.OPEN) socket.close();
      }),
    async () => {},
  );
  const seen = await statesSeen(page);
  expect(seen.some((entry) => entry.startsWith('resuming:signal:'))).toBe(true);
});
