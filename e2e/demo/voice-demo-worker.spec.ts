import { test as base, expect, type Browser } from '@playwright/test';
import { createClient } from '@palaver/sdk-core';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { wavFile } from '@palaver/sdk-core/testing';
import { startVoiceDemo, type VoiceDemo } from '../../examples/voice-demo/demo-server.js';
import { withChromium } from '../media/support/chromium.js';
import { startExampleWorker, stopExampleWorker } from '../support/livekit-agents-worker.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';

const API_KEY = 'demo-worker-key';
const API_SECRET = 'demo-worker-secret-0123456789-0123456789';

interface WorkerFixtures {
  platform: { server: PalaverServer; demo: VoiceDemo };
  quietBrowser: Browser;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const test = base.extend<{}, WorkerFixtures>({
  platform: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({ env: { LIVEKIT_API_KEY: API_KEY, LIVEKIT_API_SECRET: API_SECRET }, config: { logLevel: 'warn' } });
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

test('with a LiveKit Agents worker registered, the demo offers it as the agent and calls it', async ({ platform, quietBrowser }) => {
  const page = await (await quietBrowser.newContext({ viewport: { width: 1100, height: 820 } })).newPage();
  await page.goto(platform.demo.url);
  await expect(page.getByTestId('persona').locator('option')).not.toHaveCount(1, { timeout: 20_000 });
  // No worker yet: no agent choice, Palaver's voice agent it is.
  await expect(page.getByTestId('agent')).toHaveCount(0);

  const worker = startExampleWorker(platform.server.url!, { key: API_KEY, secret: API_SECRET });
  try {
    const client = createClient({ baseUrl: platform.server.url!, apiKey: platform.server.apiKey, maxRetries: 0 });
    await expect
      .poll(async () => (await client.realtime.agents()).values.some((agent) => agent.type === 'livekit_worker' && agent.agent_name === 'echo-agent'), {
        timeout: 45_000,
        message: 'the example worker to register',
      })
      .toBe(true);

    await page.reload();
    const agentPicker = page.getByTestId('agent');
    await expect(agentPicker).toContainText('LiveKit worker: echo-agent', { timeout: 20_000 });
    await agentPicker.selectOption({ label: 'LiveKit worker: echo-agent' });
    // The worker brings its own behaviour: persona, voice and model are not its.
    await expect(page.getByTestId('persona')).toBeDisabled();
    await expect(page.getByTestId('llm')).toBeDisabled();
    await page.screenshot({ path: test.info().outputPath('worker-01-picked.png'), fullPage: true });

    await page.getByTestId('call').click();
    await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 30_000 });
    const transcript = page.getByTestId('transcript');
    await expect(transcript).toContainText('Hello! Type something and I will echo it.', { timeout: 20_000 });
    const sessions = await client.realtime.list();
    const live = sessions.values.find((session) => session.state === 'in_progress');
    expect(live?.config.general.agent).toEqual({ type: 'livekit_worker', agent_name: 'echo-agent' });

    await page.getByTestId('chat-input').fill('hello worker');
    await page.getByTestId('chat-input').press('Enter');
    await expect(transcript).toContainText('You said: hello worker', { timeout: 20_000 });
    await page.screenshot({ path: test.info().outputPath('worker-02-in-the-call.png'), fullPage: true });
    await page.getByTestId('hang-up').click();
    await expect(page.getByTestId('call')).toHaveText('Call again');
  } catch (error) {
    throw new Error(`${(error as Error).message}\nworker log:\n${worker.log().slice(-4000)}`);
  } finally {
    await stopExampleWorker(worker.process);
  }
});
