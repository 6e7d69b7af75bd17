import { existsSync } from 'node:fs';
import { test as base, type Browser, type Page } from '@playwright/test';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { sineTone, wavFile, type MediaService } from '@palaver/sdk-core/testing';
import { CHROMIUM, withChromium } from './chromium.js';
import { serveTestPage } from './test-page.js';

export { CHROMIUM } from './chromium.js';
export { eventually } from '@palaver/sdk-core/testing';

/** The fake microphone's tone. */
export const MIC_TONE_HZ = 440;
/** The agent's tone. */
export const AGENT_TONE_HZ = 1000;

/** Browser tests need Debian's Chromium: skipped with a reason when missing, failed under CI=true. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`Required component missing in CI: Chromium (${CHROMIUM} not found)`);
  console.warn(`[skip] Chromium unavailable: ${CHROMIUM} not found`);
  return false;
}

export interface MediaFixtures {
  palaver: { server: PalaverServer; media: MediaService; url: string };
  chromiumBrowser: Browser;
  newPage: () => Promise<Page>;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export const test = base.extend<{}, MediaFixtures>({
  palaver: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({ env: {}, config: { logLevel: 'warn' } });
      const url = await server.listen(0, '127.0.0.1');
      await use({ server, media: server.services.media, url });
      await server.close();
    },
    { scope: 'worker' },
  ],
  chromiumBrowser: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => withChromium(wavFile(sineTone(MIC_TONE_HZ, 48_000, 10_000, 0.5), 48_000), use),
    { scope: 'worker' },
  ],
  newPage: [
    async ({ chromiumBrowser: browser }, use) => {
      const testPage = await serveTestPage();
      const contexts: Array<Awaited<ReturnType<Browser['newContext']>>> = [];
      await use(async () => {
        const context = await browser.newContext();
        contexts.push(context);
        const page = await context.newPage();
        await page.goto(testPage.url);
        await page.waitForFunction(() => 'palaver' in window);
        return page;
      });
      for (const context of contexts) await context.close();
      await testPage.close();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
