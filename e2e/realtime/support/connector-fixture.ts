import { test as base, type Browser, type Page } from '@playwright/test';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { sineTone, wavFile, type MediaService } from '@palaver/sdk-core/testing';
import { withChromium } from '../../media/support/chromium.js';
import { MIC_TONE_HZ } from '../../media/support/media-fixture.js';
import { serveConnectorPage, type ConnectorPageKind } from './connector-page.js';

export { chromiumAvailable, eventually, expect, AGENT_TONE_HZ, MIC_TONE_HZ } from '../../media/support/media-fixture.js';

export interface ConnectorFixtures {
  palaver: { server: PalaverServer; media: MediaService };
  chromiumBrowser: Browser;
  /** A fresh browser context on the connector page (`window.connector`), or on the React app page. */
  newPage: (kind?: ConnectorPageKind) => Promise<Page>;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export const test = base.extend<{}, ConnectorFixtures>({
  palaver: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({ env: {}, config: { logLevel: 'warn' } });
      await server.listen(0, '127.0.0.1');
      await use({ server, media: server.services.media });
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
      const pages = {
        connector: await serveConnectorPage('connector'),
        react: await serveConnectorPage('react'),
        'app-run': await serveConnectorPage('app-run'),
      };
      const contexts: Array<Awaited<ReturnType<Browser['newContext']>>> = [];
      await use(async (kind = 'connector') => {
        const context = await browser.newContext();
        contexts.push(context);
        const page = await context.newPage();
        await page.goto(pages[kind].url);
        const ready = { connector: () => 'connector' in window, react: () => 'setConnectionDetails' in window, 'app-run': () => 'appRun' in window }[kind];
        await page.waitForFunction(ready);
        return page;
      });
      for (const context of contexts) await context.close();
      await Promise.all(Object.values(pages).map((served) => served.close()));
    },
    { scope: 'worker' },
  ],
});
