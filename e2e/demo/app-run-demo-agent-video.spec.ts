import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect, test, type Browser } from '@playwright/test';
import { createClient } from '@palaver/sdk-core';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { graphOf, wavFile } from '@palaver/sdk-core/testing';
import { startAppRunDemo } from '../../examples/app-run-demo/demo-server.js';
import { CHROMIUM, chromiumArguments } from '../media/support/chromium.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';
import { y4mClip } from '../media/support/y4m.js';

test.skip(!chromiumAvailable(), 'Debian Chromium (/usr/bin/chromium) is not installed');

/** The demo showing what a run publishes (kept small: the docs show it). */
const SCREENSHOT = fileURLToPath(new URL('../../docs/images/app-run-demo-agent-video.png', import.meta.url));

let server: PalaverServer;
let browser: Browser;
let directory: string;

test.beforeAll(async () => {
  server = await createServer({ env: {}, config: { logLevel: 'warn' } });
  await server.listen(0, '127.0.0.1');
  directory = mkdtempSync(join(tmpdir(), 'palaver-demo-agent-video-'));
  const clip = join(directory, 'camera.y4m');
  writeFileSync(clip, y4mClip({ width: 640, height: 360, fps: 30, frames: 30, rgb: [40, 110, 200] }));
  const wav = join(directory, 'microphone.wav');
  writeFileSync(wav, wavFile(new Int16Array(16_000), 16_000));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...chromiumArguments(wav), `--use-file-for-fake-video-capture=${clip}`] });
});

test.afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

test("the app-run demo shows what the run publishes: a BouncingBall on the Output's video, next to the visitor's camera", async () => {
  const client = createClient({ baseUrl: server.url!, apiKey: server.apiKey });
  // The camera goes to an FPS node (the run sees it); the ball is what the run shows.
  const graph = graphOf(
    [
      { id: 'publish', type: 'Publish' },
      { id: 'fps', type: 'FPS', values: { fps: 1 } },
      { id: 'ball', type: 'BouncingBall' },
      { id: 'output', type: 'Output' },
    ],
    [
      { from: 'publish.video', to: 'fps.video_in' },
      { from: 'ball.video', to: 'output.video' },
    ],
  );
  const created = await client.apps.create({ name: 'Bouncing ball' });
  const app = await client.apps.update(created.id, { version: created.version, graph });
  const demo = await startAppRunDemo({ platformUrl: server.url!, apiKey: server.apiKey, app: app.id });
  const page = await (await browser.newContext({ viewport: { width: 1100, height: 760 } })).newPage();
  try {
    await page.goto(demo.url);
    await expect(page.getByTestId('graph').locator('[data-node]')).toHaveCount(4, { timeout: 20_000 });
    await page.getByTestId('start').click();
    await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
    // The run's video appears by itself; the camera on a click.
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[data-testid="agent-video"]')?.videoWidth ?? 0) > 0, undefined, {
      timeout: 20_000,
    });
    expect(await page.getByTestId('agent-video').evaluate((video: HTMLVideoElement) => [video.videoWidth, video.videoHeight])).toEqual([640, 480]);
    await page.getByTestId('camera').click();
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[data-testid="camera-preview"]')?.videoWidth ?? 0) > 0, undefined, {
      timeout: 20_000,
    });
    await expect(page.getByTestId('camera')).toHaveText('Camera off');
    await page.screenshot({ path: SCREENSHOT });
    await page.getByTestId('camera').click();
    await expect(page.getByTestId('camera-preview')).toHaveCount(0);
    await page.getByTestId('leave').click();
    await expect(page.getByTestId('agent-video')).toHaveCount(0);
  } finally {
    await demo.close();
  }
});
