/**
 * Reconnect benchmark (issue 30 part 3): the platform's built-in agent answers a typed question while the browser
 * (Debian's headless Chromium, the realtime connector bundled from source) goes offline for OFFLINE_MS, then comes
 * back. Per round: the time from the network back to `connected`, and the lines lost: what the agent sent that the
 * page lacks (or lacks as final) once the answer is over, by the agent's own log (a `transcript_resume {after:
 * null}` asked at the end). Baseline: the same rounds with `resumeTranscripts: false` (only what LiveKit delivered).
 * Target: 0 lines lost. Skips with a printed reason when /usr/bin/chromium is missing.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createClient } from '@palaver/sdk-core';
import { createServer } from '@palaver/sdk-core/server';
import { wavFile } from '@palaver/sdk-core/testing';
import { CHROMIUM, chromiumArguments } from '../e2e/media/support/chromium.js';
import { serveConnectorPage } from '../e2e/realtime/support/connector-page.js';
import { preferredLlm } from '../examples/support/browser-app-server.js';
import { fixed, median, percentile } from './statistics.js';

const ROUNDS = Number(process.env.RECONNECT_BENCH_ROUNDS ?? 5);
const OFFLINE_MS = Number(process.env.RECONNECT_BENCH_OFFLINE_MS ?? 3000);

if (!existsSync(CHROMIUM)) {
  console.log(`[skip] reconnect: Chromium unavailable (${CHROMIUM} not found)`);
  process.exit(0);
}

type Line = { id: string; agent: boolean; final: boolean; text: string };
const snapshot = (page: Page) => page.evaluate(() => window.connector.snapshot());
const lineKey = (line: Line) => `${line.agent ? 'agent' : 'human'}:${line.id}`;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const directory = mkdtempSync(join(tmpdir(), 'palaver-reconnect-'));
const wav = join(directory, 'silence.wav');
writeFileSync(wav, wavFile(new Int16Array(16_000 * 5), 16_000));
const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
const baseUrl = await server.listen(0, '127.0.0.1');
const llm = await preferredLlm(baseUrl, server.apiKey);
const client = createClient({ baseUrl, apiKey: server.apiKey });
const connectorPage = await serveConnectorPage('connector');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArguments(wav) });

/** One call with one dropped answer: [ms from network back to connected, lines lost]. */
async function round(resumeTranscripts: boolean, index: number): Promise<[number, number]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(connectorPage.url);
  const { token } = await client.usage.createToken({ human: `reconnect_${index}_${resumeTranscripts}` });
  const config = { general: {}, input: {}, output: {}, generative: { llm } };
  const joined = await page.evaluate(
    ([jwt, url, body, resume]) => window.connector.connect('', jwt, { baseUrl: url, config: body, microphone: false, resumeTranscripts: resume }),
    [token, baseUrl, config, resumeTranscripts] as const,
  );
  if (!joined.ok) throw new Error(`could not start: ${joined.error.message}`);
  await until(
    () => snapshot(page),
    (state) => state.agentState === 'listening',
  );
  await page.evaluate(() => window.connector.sendChat('please tell me a long story about a network that drops'));
  await until(
    () => snapshot(page),
    (state) => state.transcriptions.some((line) => !line.agent),
  );
  await context.setOffline(true);
  await until(
    () => snapshot(page),
    (state) => state.connectionState === 'resuming',
    15_000,
  ).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, OFFLINE_MS));
  const back = performance.now();
  await context.setOffline(false);
  await until(
    () => snapshot(page),
    (state) => state.connectionState === 'connected',
  );
  const toConnected = performance.now() - back;
  await until(
    () => snapshot(page),
    (state) => state.agentState === 'listening',
    60_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const had = new Map((await snapshot(page)).transcriptions.map((line: Line) => [lineKey(line), line]));
  // The agent's own log, everything it sent, as the oracle.
  await page.evaluate(() => window.connector.sendData('transcript_resume', JSON.stringify({ after: null })));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const sent = (await snapshot(page)).transcriptions as Line[];
  const lost = sent.filter((line) => {
    const seen = had.get(lineKey(line));
    return !seen || (line.final && !seen.final) || seen.text !== line.text;
  }).length;
  await page.evaluate(() => window.connector.disconnect());
  await context.close();
  return [toConnected, lost];
}

console.log(`reconnect: ${ROUNDS} rounds per mode, offline ${OFFLINE_MS} ms while the built-in agent answers (${llm})`);
for (const resume of [false, true]) {
  const results: Array<[number, number]> = [];
  for (let index = 0; index < ROUNDS; index += 1) results.push(await round(resume, index));
  const times = results.map(([ms]) => ms);
  const lost = results.map(([, count]) => count);
  console.log(
    `  ${resume ? 'with transcript resume' : 'baseline (LiveKit only)'}: network back -> connected p50 ${fixed(median(times))} ms, p95 ${fixed(percentile(times, 95))} ms; lines lost per round ${lost.join(', ')} (total ${lost.reduce((a, b) => a + b, 0)})`,
  );
}
await browser.close();
await connectorPage.close();
await server.close();
