import { fileURLToPath } from 'node:url';
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { concatSamples, wavFile } from '@palaver/sdk-core/testing';
import { withChromium } from '../media/support/chromium.js';
import { chromiumAvailable } from '../media/support/media-fixture.js';
import { requireSpeechToText } from '../demo/support/speaking-chromium.js';
import { bundleForPage, servePage } from '../support/bundled-page.js';

/**
 * OpenAI's own browser SDK against the platform over WebRTC (issue 31 part 4, decision 0113): a RealtimeSession of
 * @openai/agents-realtime with its default browser transport (OpenAIRealtimeWebRTC) pointed at /v1/realtime/calls, an
 * ephemeral key from /v1/realtime/client_secrets, Chromium's fake microphone asking a question (a WAV of the platform's
 * TTS). The built-in engines answer; the agent's track is measured in the page.
 */
interface Fixtures {
  platform: { server: PalaverServer; pageUrl: string };
}
interface TestFixtures {
  speaking: Browser;
}

const QUESTION = 'please call me tomorrow morning';
/** What a level meter reads for speech (RMS of 16-bit samples); silence and comfort noise stay far under it. */
const AUDIBLE_RMS = 200;

/** `text` said by the platform's TTS, as a WAV at its rate (Chromium resamples to 48 kHz): `leadSeconds` of silence first, `tailSeconds` after. */
async function question(server: PalaverServer, text: string, leadSeconds: number, tailSeconds: number): Promise<Uint8Array> {
  const response = await server.fetch(
    new Request('http://palaver.test/v1/voice/generate', {
      method: 'POST',
      headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json', accept: 'audio/wav' },
      body: JSON.stringify({ text, voice_id: 'flite-slt' }),
    }),
  );
  const wav = new Uint8Array(await response.arrayBuffer());
  const sampleRate = new DataView(wav.buffer).getUint32(24, true);
  const speech = new Int16Array(wav.slice(44).buffer);
  const silence = (seconds: number) => new Int16Array(Math.round(sampleRate * seconds));
  return wavFile(concatSamples([silence(leadSeconds), speech, silence(tailSeconds)]), sampleRate);
}

const test = base.extend<TestFixtures, Fixtures>({
  platform: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({ env: {}, config: { logLevel: 'warn' } });
      await server.listen(0, '127.0.0.1');
      const page = await servePage('openai webrtc', await bundleForPage(fileURLToPath(new URL('./support/openai-webrtc-page-entry.ts', import.meta.url))));
      await use({ server, pageUrl: page.url });
      await page.close();
      await server.close();
    },
    { scope: 'worker' },
  ],
  // The question comes 3 s after the microphone opens (the call is connected by then), then a minute of silence.
  speaking: async ({ platform }, use) => withChromium(await question(platform.server, QUESTION, 3, 60), use),
});

test.skip(!chromiumAvailable(), 'Debian Chromium (/usr/bin/chromium) is not installed');

type PageEvent = { type: string; [key: string]: unknown };
interface PageApi {
  start(callsUrl: string, key: string, model: string): Promise<string | undefined>;
  say(text: string): void;
  stop(): void;
  events(): PageEvent[];
  loudest(): number;
}

/** An ephemeral key of a human, as an app's server makes it for the browser. */
async function ephemeralKey(server: PalaverServer): Promise<string> {
  const response = await fetch(`${server.url}/v1/realtime/client_secrets`, {
    method: 'POST',
    headers: { 'x-api-key': server.apiKey, 'x-human-id': 'webrtc-browser', 'content-type': 'application/json' },
    body: JSON.stringify({ session: { type: 'realtime', model: 'builtin-offline' } }),
  });
  return ((await response.json()) as { value: string }).value;
}

async function connect(platform: Fixtures['platform'], browser: Browser): Promise<{ page: Page; callId: string | undefined }> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(platform.pageUrl);
  await page.waitForFunction(() => 'start' in window);
  const callId = await page.evaluate(({ url, key }) => (window as unknown as PageApi).start(url, key, 'builtin-offline'), {
    url: `${platform.server.url}/v1/realtime/calls`,
    key: await ephemeralKey(platform.server),
  });
  return { page, callId };
}

/** Waits for an event of `type` on the page's data channel, and answers it. */
async function nextEvent(page: Page, type: string, where: (event: PageEvent) => boolean = () => true, timeout = 45_000): Promise<PageEvent> {
  let found: PageEvent | undefined;
  await expect
    .poll(
      async () => {
        found = (await page.evaluate(() => (window as unknown as PageApi).events())).find((event) => event.type === type && where(event));
        return found !== undefined;
      },
      { timeout, message: `waiting for ${type}` },
    )
    .toBe(true);
  return found!;
}

test('the spoken question is transcribed and answered with speech on the agent track; a typed message is answered', async ({ platform, speaking }) => {
  await requireSpeechToText(platform.server, test.skip);
  const { page, callId } = await connect(platform, speaking);
  expect(callId).toMatch(/^rtc_/);

  const heard = await nextEvent(page, 'conversation.item.input_audio_transcription.completed');
  const words = String(heard.transcript).toLowerCase();
  // The question's audio crossed WebRTC into the recogniser: one of its content words is enough (pocketsphinx on
  // Chromium-resampled Flite speech under load heard "the spawning and i'll morning" for "call me tomorrow morning").
  expect(['call', 'tomorrow', 'morning'].filter((word) => words.includes(word)).length, words).toBeGreaterThanOrEqual(1);
  const done = await nextEvent(page, 'response.done');
  expect(done.response).toMatchObject({ status: 'completed', output_modalities: ['audio'] });
  await nextEvent(page, 'output_audio_buffer.stopped');
  await expect.poll(() => page.evaluate(() => (window as unknown as PageApi).loudest()), { timeout: 10_000 }).toBeGreaterThan(AUDIBLE_RMS);

  await page.evaluate(() => (window as unknown as PageApi).say('What time is it?'));
  const typed = await nextEvent(page, 'response.output_audio_transcript.done', (event) => /time/i.test(String(event.transcript)));
  expect(String(typed.transcript)).not.toBe('');
  expect((await page.evaluate(() => (window as unknown as PageApi).events())).filter((event) => event.type === 'response.done').length).toBeGreaterThanOrEqual(
    2,
  );
  await page.evaluate(() => (window as unknown as PageApi).stop());
});

test('a bad offer is refused with 400 and the error shape', async ({ platform }) => {
  const response = await fetch(`${platform.server.url}/v1/realtime/calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp', authorization: `Bearer ${await ephemeralKey(platform.server)}` },
    body: 'v=0\r\nnot an offer\r\n',
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ type: 'invalid_input', message: expect.stringMatching(/SDP/) });
});
