/**
 * Soak: 20 realtime sessions with a voice agent each (embedded media endpoint, VAD, pocketsphinx STT,
 * builtin-offline, Flite TTS), started through the REST API, each with a simulated human who speaks Flite
 * sentences into the room, waits for the answer, pauses and speaks again, for 10 minutes. Checked: no errors
 * (unanswered turns, agent error messages, server error logs, sessions that end by themselves), RSS at the end
 * within 10 % of RSS after the warm-up (both after a full GC). Printed: turn latency p50/p95 at the human (end
 * of speech -> first audible agent audio), against the baseline of one session alone measured in the same run.
 *
 * Run: `pnpm bench soak` (PALAVER_SOAK_SESSIONS, PALAVER_SOAK_SECONDS and PALAVER_SOAK_WARMUP_SECONDS shorten it).
 * Exits non-zero when a target is missed. Needs pocketsphinx (skips with a reason without it).
 */
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { HumanParticipant, createTestPlatform, fliteSpeech } from '@palaver/sdk-core/testing';
import { fixed, percentile } from './statistics.js';

const SESSIONS = Number(process.env.PALAVER_SOAK_SESSIONS ?? 20);
const DURATION_MS = Number(process.env.PALAVER_SOAK_SECONDS ?? 600) * 1000;
const WARMUP_MS = Number(process.env.PALAVER_SOAK_WARMUP_SECONDS ?? Math.min(120, DURATION_MS / 5000)) * 1000;
const ANSWER_TIMEOUT_MS = 30_000;
const RSS_GROWTH_LIMIT = 0.1;
const SENTENCES = ['Please call me tomorrow morning.', 'The weather is nice today.', 'What time does the train leave?', 'My favourite colour is blue.'];

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const settledRss = async () => {
  for (let round = 0; round < 3; round += 1) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return process.memoryUsage().rss;
};

// The server's own errors count as soak errors.
let serverErrors = 0;
const errorLines: string[] = [];
const logger = pino(
  { level: 'warn' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = chunk.toString();
      if ((JSON.parse(line) as { level: number }).level >= 50) {
        serverErrors += 1;
        if (errorLines.length < 5) errorLines.push(line.slice(0, 300));
      }
      done();
    },
  }),
);

const platform = await createTestPlatform({ logger });
await platform.server.listen(0, '127.0.0.1');
const { speech, media } = platform.server.services;
const stt = await speech.stt.status();
if (!stt.available) {
  console.log(`[skip] soak bench: no speech-to-text engine (${stt.reason})`);
  await platform.close();
  process.exit(0);
}
const sentences = await Promise.all(SENTENCES.map((sentence) => fliteSpeech(speech, sentence)));

interface Turns {
  latencies: number[];
  unanswered: number;
}

/** One human: starts a session through the API, joins its room and talks until `until`. */
async function converse(
  name: string,
  until: number,
  turns: Turns,
  maxTurns = Number.POSITIVE_INFINITY,
): Promise<{ agentErrors: string[]; endedEarly: boolean }> {
  const client = platform.clientWith({ apiKey: platform.server.apiKey, humanId: name });
  const { session } = await client.realtime.start({ config: { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } } });
  const human = await HumanParticipant.join(media.transport, session.id, name);
  try {
    await human.waitForState('listening', 30_000);
    for (let turn = 0; performance.now() < until && turn < maxTurns; turn += 1) {
      const answered = human.finalTranscriptions(true).length;
      const { speechEndedAt } = await human.say(sentences[turn % sentences.length]!);
      const deadline = performance.now() + ANSWER_TIMEOUT_MS;
      while (human.finalTranscriptions(true).length <= answered && performance.now() < deadline && !human.agentLeft)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const heard = human.firstAudibleAfter(speechEndedAt);
      if (human.finalTranscriptions(true).length > answered && heard) turns.latencies.push(heard.at - speechEndedAt);
      else turns.unanswered += 1;
      if (human.agentLeft) break;
      await human.waitForState('listening', ANSWER_TIMEOUT_MS).catch(() => undefined);
      // What people do between turns; it also spreads the sessions' turns over time.
      await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 2000));
      human.heard.splice(0, Math.max(0, human.heard.length - 100)); // keep the recorder's memory flat
    }
    const endedEarly = human.agentLeft;
    await client.realtime.end(session.id);
    return { agentErrors: human.errors, endedEarly };
  } finally {
    await human.leave().catch(() => undefined);
  }
}

// Baseline: one session alone, a few turns.
const alone: Turns = { latencies: [], unanswered: 0 };
await converse('soak-baseline', Number.POSITIVE_INFINITY, alone, 6);

const started = performance.now();
const until = started + DURATION_MS;
const loaded: Turns = { latencies: [], unanswered: 0 };
const rssSamples: Array<{ at: number; rss: number }> = [];
const sampler = setInterval(() => rssSamples.push({ at: performance.now() - started, rss: process.memoryUsage().rss }), 10_000);
let warmRss = 0;
const warmedUp = (async () => {
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
  warmRss = await settledRss();
  loaded.latencies.length = 0; // latency counts after the warm-up too
})();
const outcomes = await Promise.all(Array.from({ length: SESSIONS }, (_unused, index) => converse(`soak-human-${index}`, until, loaded)));
await warmedUp;
clearInterval(sampler);
const endRss = await settledRss();
await platform.close();

const agentErrors = outcomes.flatMap((outcome) => outcome.agentErrors);
const endedEarly = outcomes.filter((outcome) => outcome.endedEarly).length;
const errors = loaded.unanswered + agentErrors.length + serverErrors + endedEarly;
const growth = (endRss - warmRss) / warmRss;
const mb = (bytes: number) => `${fixed(bytes / 1024 / 1024, 1)} MB`;
const p50 = percentile(loaded.latencies, 50);
const alone50 = percentile(alone.latencies, 50);
console.log(`soak: ${SESSIONS} sessions for ${fixed(DURATION_MS / 1000, 0)} s, a simulated human speaking in each (warm-up ${fixed(WARMUP_MS / 1000, 0)} s)`);
console.log(`  turns after warm-up   ${loaded.latencies.length} answered, ${loaded.unanswered} unanswered`);
console.log(
  `  turn latency          p50 ${fixed(p50, 0)} ms, p95 ${fixed(percentile(loaded.latencies, 95), 0)} ms (end of human speech -> first audible agent audio)`,
);
console.log(`  baseline (1 session)  p50 ${fixed(alone50, 0)} ms over ${alone.latencies.length} turns; ratio ${fixed(p50 / alone50, 2)}`);
console.log(
  `  errors                ${errors} (unanswered ${loaded.unanswered}, agent error messages ${agentErrors.length}, server error logs ${serverErrors}, sessions ended early ${endedEarly})`,
);
for (const line of errorLines) console.log(`    ${line}`);
console.log(
  `  RSS                   after warm-up ${mb(warmRss)}, at the end ${mb(endRss)} (${growth >= 0 ? '+' : ''}${fixed(growth * 100, 1)} %, limit ${RSS_GROWTH_LIMIT * 100} %)`,
);
console.log(`  RSS samples           ${rssSamples.map((sample) => `${fixed(sample.at / 1000, 0)}s:${fixed(sample.rss / 1024 / 1024, 0)}`).join(' ')}`);
const passed = errors === 0 && growth <= RSS_GROWTH_LIMIT;
console.log(`  ${passed ? 'PASS' : 'FAIL'}`);
process.exit(passed ? 0 : 1);
