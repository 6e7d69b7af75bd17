/**
 * Noise suppression in the browser (issue 30 part 2, decision 0116): does the connector's RNNoise pay for the agent?
 * Debian Chromium's fake microphone plays the platform's own speech (Flite, five sentences, a pause after each) over
 * pink noise at 5 dB and 10 dB SNR; the connector sends it to the built-in agent through a real session, with and
 * without suppression. Per condition: the sentences' words the agent's offline STT (pocketsphinx) recognised (word
 * accuracy: 1 - word error rate over the whole passage, from every line the agent transcribed of the human), how many
 * of the five sentences ended as turns, and the end-of-turn delay (the agent's `end_of_speech_decision_ms`: last
 * speech -> the decision that the turn is over). The baseline is the clean speech without noise or suppression.
 * The agent answers in text only, so its voice never overlaps the next sentence.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createClient } from '@palaver/sdk-core';
import { createServer } from '@palaver/sdk-core/server';
import { wordErrorRate } from '@palaver/sdk-core/testing';
import { CHROMIUM, chromiumArguments } from '../e2e/media/support/chromium.js';
import { serveConnectorPage } from '../e2e/realtime/support/connector-page.js';
import { noisyMicrophone } from '../e2e/support/noisy-speech.js';
import { fixed, median } from './statistics.js';

const SENTENCES = [
  'please tell me about the weather',
  'what time does the museum open tomorrow',
  'i would like to book a table for two',
  'can you call my sister after lunch',
  'turn the lights off in the kitchen',
];
const REPEATS = Number(process.env.NOISE_BENCH_REPEATS ?? 2);
const PAUSE_SECONDS = 2.5;

if (!existsSync(CHROMIUM)) {
  console.log(`[skip] noise-suppression: Chromium unavailable (${CHROMIUM} not found)`);
  process.exit(0);
}

interface Outcome {
  accuracy: number;
  recognised: number;
  turns: number;
  endOfTurnMs: number[];
}

const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
const baseUrl = await server.listen(0, '127.0.0.1');
const client = createClient({ baseUrl, apiKey: server.apiKey });
const connectorPage = await serveConnectorPage('connector');
const directory = mkdtempSync(join(tmpdir(), 'palaver-noise-'));
const reference = SENTENCES.join(' ');
const referenceWords = reference.split(' ');

/** One pass of the passage into a fresh session. */
async function run(snrDb: number | null, suppression: boolean, seed: number): Promise<Outcome> {
  const { wav, seconds } = await noisyMicrophone(server, SENTENCES, { snrDb, pauseSeconds: PAUSE_SECONDS, seed });
  const file = join(directory, `microphone-${snrDb}-${seed}.wav`);
  writeFileSync(file, wav);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArguments(file) });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(connectorPage.url);
    const { session, connection_details } = await client.realtime.start({
      config: {
        general: { time_limit_s: 300 },
        input: { interruptable: false },
        output: { speech_synthesis_enabled: false },
        generative: { llm: 'builtin-offline' },
      },
    });
    const joined = await page.evaluate(([url, token, on]) => window.connector.connect(url, token, { noiseSuppression: on }), [
      connection_details.url,
      connection_details.token,
      suppression,
    ] as const);
    if (!joined.ok) throw new Error(`could not connect: ${joined.error.message}`);
    // The file plays from the microphone's start (at connect); one pass, then the last turn's decision.
    await new Promise((resolve) => setTimeout(resolve, (seconds + 3) * 1000));
    const state = await page.evaluate(() => window.connector.snapshot());
    await page.evaluate(() => window.connector.disconnect());
    // Ended at once, so its agent frees its speech recogniser for the next run (it would wait for the human otherwise).
    await client.realtime.end(session.id);
    if (suppression && !state.noiseSuppression.active) throw new Error('noise suppression did not run');
    const heard = state.transcriptions
      .filter((line) => !line.agent)
      .map((line) => line.text)
      .join(' ')
      .toLowerCase();
    const heardWords = new Set(heard.split(/\s+/));
    const voiceTurns = state.agentTurns.filter((turn) => turn.source === 'voice');
    return {
      accuracy: Math.max(0, 1 - wordErrorRate(reference, heard)),
      recognised: referenceWords.filter((word) => heardWords.has(word)).length,
      turns: voiceTurns.length,
      endOfTurnMs: voiceTurns.flatMap((turn) => (turn.end_of_speech_decision_ms === undefined ? [] : [turn.end_of_speech_decision_ms])),
    };
  } finally {
    await browser.close();
  }
}

const conditions: Array<{ label: string; snrDb: number | null; suppression: boolean }> = [
  { label: 'baseline: clean speech, no suppression', snrDb: null, suppression: false },
  { label: 'clean speech, suppression on', snrDb: null, suppression: true },
  { label: '10 dB SNR, no suppression', snrDb: 10, suppression: false },
  { label: '10 dB SNR, suppression on', snrDb: 10, suppression: true },
  { label: '5 dB SNR, no suppression', snrDb: 5, suppression: false },
  { label: '5 dB SNR, suppression on', snrDb: 5, suppression: true },
];

console.log(
  `noise suppression: ${SENTENCES.length} sentences (${referenceWords.length} words), pink noise, ${REPEATS} run(s) per condition, offline STT (pocketsphinx); machine shared with other work`,
);
try {
  for (const condition of conditions) {
    const outcomes: Outcome[] = [];
    for (let repeat = 0; repeat < REPEATS; repeat += 1) outcomes.push(await run(condition.snrDb, condition.suppression, repeat + 1));
    const delays = outcomes.flatMap((outcome) => outcome.endOfTurnMs);
    console.log(
      `  ${condition.label.padEnd(40)} word accuracy ${outcomes.map((outcome) => fixed(outcome.accuracy * 100, 0)).join('/')} %, ` +
        `words recognised ${outcomes.map((outcome) => outcome.recognised).join('/')} of ${referenceWords.length}, ` +
        `turns ${outcomes.map((outcome) => outcome.turns).join('/')} of ${SENTENCES.length}, ` +
        `end-of-turn delay p50 ${delays.length > 0 ? `${fixed(median(delays), 0)} ms` : 'n/a (no turn ended)'}`,
    );
  }
} finally {
  await connectorPage.close();
  await server.close();
  rmSync(directory, { recursive: true, force: true });
}
