import { chromium, expect, test as base, type Browser } from '@playwright/test';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { CHROMIUM } from '../media/support/chromium.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';

interface ReferenceFixtures {
  /** A platform started for development: its reference fills in the development key on this machine. */
  platform: { server: PalaverServer; url: string };
  browser: Browser;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const test = base.extend<{}, ReferenceFixtures>({
  platform: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({ env: {}, config: { logLevel: 'warn', docs: { prefillDevKey: true } } });
      const listening = await server.listen(0, '127.0.0.1');
      // Opened as localhost: a loopback host name, as a developer's browser would.
      await use({ server, url: listening.replace('127.0.0.1', 'localhost') });
      await server.close();
    },
    { scope: 'worker' },
  ],
  browser: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
});

test.skip(!chromiumAvailable(), 'Debian Chromium (/usr/bin/chromium) is not installed');

test('the reference lists the operations and a try-it request to the running server succeeds with the development key', async ({ platform, browser }) => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const elsewhere: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(platform.url) && !/^(data|blob):/.test(request.url())) elsewhere.push(request.url());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });

  await page.goto(`${platform.url}/docs`);
  await expect(page.getByRole('heading', { name: 'Palaver API', exact: true })).toBeVisible({ timeout: 30_000 });
  // The operations, grouped by tag: a group opens onto its operations.
  await page.getByText('Voices', { exact: true }).first().click();
  const listVoices = page.getByText('List built-in and project voices, optionally only those with every given tag').first();
  await expect(listVoices).toBeVisible();
  await expect(page.getByText('Get a voice', { exact: true }).first()).toBeVisible();
  await listVoices.click();

  // The operation shows its example answer and its code samples; try-it opens with the key filled in.
  const operation = page.locator('section', { has: page.getByRole('heading', { name: /List built-in and project voices/ }) }).last();
  await expect(operation.getByText('"flite-slt"').first()).toBeVisible();
  await expect(operation.getByText('$PALAVER_API_KEY').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('operation.png') });
  await operation.getByRole('button', { name: /Test Request/ }).click();
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/voice/list');
  await page.getByRole('button', { name: /^Send Request/ }).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  expect(response.request().headers()['x-api-key']).toBe(platform.server.apiKey);
  expect(((await response.json()) as { values: Array<{ id: string }> }).values.map((voice) => voice.id)).toContain('flite-slt');
  await expect(page.getByText('200 OK').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('try-it.png') });

  // Nothing came from anywhere but the platform (no CDN, no fonts, no telemetry), and nothing failed.
  expect(elsewhere).toEqual([]);
  expect(problems).toEqual([]);
});
