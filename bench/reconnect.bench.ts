/**
 * Reconnect benchmark (issue 30 part 3): the platform's built-in agent answers a typed question while the browser
 * (Debian's headless Chromium, the realtime connector bundled from source) loses its network, then gets it back.
 * Two arms: `offline`, Chromium's offline emulation for OFFLINE_MS right after the question (blocks the signalling
 * websocket, not WebRTC); `cut`, a real cut for CUT_MS (default 20 s, a laptop asleep) once the agent speaks: the
 * testing kit's UDP relay drops every WebRTC datagram (media and data channels) while the page is offline too.
 * Per round: the time from the network back to `connected` (and, for the cut, from the cut to `resuming`), and the
 * lines lost: what the agent sent that the page lacks (or lacks as final) once the answer is over, by the agent's own
 * log (a `transcript_resume {after: null}` asked at the end). Baseline: the same rounds with `resumeTranscripts:
 * false` (only what LiveKit delivered). Target: 0 lines lost. RECONNECT_BENCH_ARMS=offline,cut picks the arms.
 * Skips with a printed reason when /usr/bin/chromium is missing.
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
import { cutNetwork, startCuttableServer } from '../e2e/realtime/support/cut-network.js';
import { preferredLlm } from '../examples/support/browser-app-server.js';
import { fixed, median, percentile } from './statistics.js';

const ROUNDS = Number(process.env.RECONNECT_BENCH_ROUNDS ?? 5);
const OFFLINE_MS = Number(process.env.RECONNECT_BENCH_OFFLINE_MS ?? 3000);
const CUT_MS = Number(process.env.RECONNECT_BENCH_CUT_MS ?? 20_000);
const ARMS = (process.env.RECONNECT_BENCH_ARMS ?? 'offline,cut').split(',') as Array<'offline' | 'cut'>;

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
const plainUrl = await server.listen(0, '127.0.0.1');
const llm = await preferredLlm(plainUrl, server.apiKey);
const cuttable = ARMS.includes('cut') ? await startCuttableServer((process.env.CUT_LOG as 'silent') ?? 'silent') : undefined;
const connectorPage = await serveConnectorPage('connector');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArguments(wav) });

/** One call with one dropped answer: [ms from network back to connected, lines lost, ms from the cut to resuming]. */
async function round(arm: 'offline' | 'cut', resumeTranscripts: boolean, index: number): Promise<[number, number, number]> {
  const target = arm === 'cut' ? cuttable!.server : server;
  const baseUrl = target.url!;
  const client = createClient({ baseUrl, apiKey: target.apiKey });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(connectorPage.url);
  const { token } = await client.usage.createToken({ human: `reconnect_${arm}_${index}_${resumeTranscripts}` });
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
  let toResuming = Number.NaN;
  let back: number;
  if (arm === 'offline') {
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
    back = performance.now();
    await context.setOffline(false);
  } else {
    await page.evaluate(() =>
      window.connector.sendChat('Tell me about the laptop. It fell asleep on the train. The Wi-Fi went away with it. Did you keep talking?'),
    );
    // Cut once the agent speaks: the rest of its answer is sent while the page is away.
    await until(
      () => snapshot(page),
      (state) => state.transcriptions.some((line) => line.agent),
    );
    const restore = await cutNetwork(cuttable!.relay, context);
    const cutAt = performance.now();
    await until(
      () => snapshot(page),
      (state) => state.connectionState === 'resuming',
      CUT_MS,
    )
      .then(() => {
        toResuming = performance.now() - cutAt;
      })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, CUT_MS - (performance.now() - cutAt))));
    back = performance.now();
    await restore();
  }
  await until(
    () => snapshot(page),
    (state) => state.connectionState === 'connected',
    60_000,
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
  // A second resume right after the first (seen in some rounds of the real cut) is waited out and counted.
  await until(
    () => snapshot(page),
    (state) => state.connectionState === 'connected',
    60_000,
  );
  const resumes = (await page.evaluate(() => window.connector.history())).connectionStates.filter((state) => state === 'resuming').length;
  if (resumes > 1) console.log(`  (round ${index}: ${resumes} resumes)`);
  await page.evaluate(() => window.connector.sendData('transcript_resume', JSON.stringify({ after: null })));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const sent = (await snapshot(page)).transcriptions as Line[];
  const lost = sent.filter((line) => {
    const seen = had.get(lineKey(line));
    return !seen || (line.final && !seen.final) || seen.text !== line.text;
  }).length;
  await page.evaluate(() => window.connector.disconnect());
  await context.close();
  return [toConnected, lost, toResuming];
}

const medianWith = new Map<string, number>();
for (const arm of ARMS) {
  console.log(
    arm === 'offline'
      ? `reconnect, offline emulation: ${ROUNDS} rounds per mode, offline ${OFFLINE_MS} ms while the built-in agent answers (${llm})`
      : `reconnect, real cut (UDP relay drops WebRTC, page offline): ${ROUNDS} rounds per mode, cut ${CUT_MS} ms once the built-in agent speaks (${llm})`,
  );
  for (const resume of [false, true]) {
    const results: Array<[number, number, number]> = [];
    for (let index = 0; index < ROUNDS; index += 1) results.push(await round(arm, resume, index));
    const times = results.map(([ms]) => ms);
    const lost = results.map(([, count]) => count);
    const detect = results.map(([, , ms]) => ms).filter((ms) => Number.isFinite(ms));
    medianWith.set(`${arm}:${resume}`, median(times));
    console.log(
      `  ${resume ? 'with transcript resume' : 'baseline (LiveKit only)'}: network back -> connected p50 ${fixed(median(times))} ms, p95 ${fixed(percentile(times, 95))} ms; lines lost per round ${lost.join(', ')} (total ${lost.reduce((a, b) => a + b, 0)})${detect.length > 0 ? `; cut -> resuming p50 ${fixed(median(detect))} ms` : ''}`,
    );
  }
  console.log(`  ratio network back -> connected, with / without resume: ${fixed(medianWith.get(`${arm}:true`)! / medianWith.get(`${arm}:false`)!)}`);
}
await browser.close();
await connectorPage.close();
await server.close();
await cuttable?.close();
