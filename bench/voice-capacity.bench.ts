/**
 * Voice capacity: N humans speak at the same moment, each into their own realtime session (embedded media endpoint,
 * VAD, pocketsphinx STT, the offline model, Flite TTS), on one platform process pinned to one core (`taskset -c 0`,
 * the humans joined in process through the embedded transport, so their cost counts against the core too).
 * Per N: end of the human's speech -> the first audible agent audio at the human, p50 and p95 over the turns; CPU
 * seconds per answered turn (the process' CPU over the rounds / turns); ratio of p50 to N = 1 (baseline, same run).
 * Profiles: the offline recogniser before (2 decoders, the library's search) and after (the platform's defaults), and the
 * hosted streaming STT (a fake Deepgram live server in the parent process, off the pinned core).
 * Word error of the offline search settings, before and after, on the corpus and the sentences in three voices.
 * Targets (issue 27): >= 8 simultaneously speaking sessions per core with p50 < 1 s offline, >= 30 hosted.
 *
 * Run: `pnpm bench voice-capacity`; `VOICE_CAPACITY_N=1,4,8` (offline) and `VOICE_CAPACITY_HOSTED_N=1,30` pick the Ns,
 * `VOICE_CAPACITY_ROUNDS=3` the rounds per N, `VOICE_CAPACITY_ONLY=wer,after` the parts (wer, before, after, niced, hosted).
 */
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  HumanParticipant,
  PocketsphinxEngine,
  RecordedEvents,
  createStreamingStt,
  startFakeDeepgramLive,
  agentHostFor,
  createTestPlatform,
  fliteSpeech,
  sessionSpec,
  type TestPlatform,
} from '@palaver/sdk-core/testing';
import type { RealtimeSessionTurnDetection } from '@palaver/sdk-core';
import { fixed, percentile } from './statistics.js';
import { spokenTexts, wordErrorOf } from './stt-word-error.js';
import { cpuPerUnit, threadTicks } from './thread-cpu.js';

const SENTENCES = [
  'Please call me tomorrow morning.',
  'I would like to book a table for two.',
  'The weather is nice today.',
  'Can you tell me a story about a dog?',
  'Thank you very much for your help.',
  'What time does the train leave?',
  'My favourite colour is blue.',
  'Good night and see you soon.',
  'How much does the ticket cost?',
  'I lost my keys this morning.',
  'Could you repeat that please?',
  'We are going to the beach on Sunday.',
  'Where is the nearest pharmacy?',
  'I need a taxi to the airport.',
  'That sounds like a great plan.',
  'Is the museum open on Monday?',
];
const COUNTS = (process.env.VOICE_CAPACITY_N ?? '1,2,4,8,12,16').split(',').map(Number);
const ROUNDS = Number(process.env.VOICE_CAPACITY_ROUNDS ?? 3);
/** Parts to run (all unless `VOICE_CAPACITY_ONLY` names some): `wer`, `before`, `after`. */
const ONLY = (process.env.VOICE_CAPACITY_ONLY ?? '').split(',').filter(Boolean);
const wanted = (part: string) => ONLY.length === 0 || ONLY.includes(part);
const HOSTED_COUNTS = (process.env.VOICE_CAPACITY_HOSTED_N ?? '1,10,20,30,40').split(',').map(Number);
const HOSTED_KEY = 'capacity-bench-key';

interface Profile {
  name: string;
  label: string;
  counts: number[];
  /** The recogniser of the profile's sessions, and how to stop it. */
  listening(): Promise<{ speech: Record<string, unknown>; givenUp: () => number; close: () => Promise<void> }>;
}

/** The offline recogniser as it was (2 decoders, the library's search, decoders at the main thread's priority) or as the platform now makes it. */
function offline(settings: ConstructorParameters<typeof PocketsphinxEngine>[0]) {
  return async () => {
    const stt = new PocketsphinxEngine(settings);
    await stt.warmUp();
    return { speech: { stt }, givenUp: () => stt.stats.givenUp, close: () => stt.close() };
  };
}

/** The hosted streaming STT: the Deepgram engine talking to the parent's fake Deepgram (off the pinned core). */
async function hosted() {
  const streamingStt = createStreamingStt({ provider: 'deepgram', apiKey: HOSTED_KEY, url: process.env.VOICE_CAPACITY_DEEPGRAM_URL! });
  return { speech: { streamingStt }, givenUp: () => 0, close: () => streamingStt.close() };
}

const PROFILES: Profile[] = [
  {
    name: 'hosted',
    label:
      'hosted streaming STT (fake Deepgram live in the parent process: interims every 100 ms, finalize answered in 100 ms); Flite TTS and the offline model on the core',
    counts: HOSTED_COUNTS,
    listening: hosted,
  },
  {
    name: 'before',
    label: 'offline, before: 2 decoders, accurate search, decoders at the main thread priority',
    counts: COUNTS,
    listening: offline({ poolSize: 2, search: 'accurate', niceness: 0, maxWaiting: Number.POSITIVE_INFINITY }),
  },
  { name: 'after', label: 'offline, after: the platform defaults (a decoder per speaker, accurate search)', counts: COUNTS, listening: offline({}) },
  {
    name: 'niced',
    label: 'offline, after, decoders niced (10) and the fast search',
    counts: COUNTS,
    listening: offline({ search: 'fast', niceness: 10 }),
  },
];
const TURN_DETECTION: RealtimeSessionTurnDetection = { mode: 'adaptive', silence_ms: 550, min_wait_ms: 200, max_wait_ms: 1200, preemptive: true };

const load = () =>
  loadavg()
    .map((value) => fixed(value, 2))
    .join(' ');

if (process.env.VOICE_CAPACITY_CHILD !== '1') {
  // The parent: pins a child running the platform and the humans to core 0, and tells the machine's load around it.
  const taskset = spawnSync('taskset', ['--version']).status === 0;
  console.log(`voice capacity: N humans speaking at once into N sessions, platform ${taskset ? 'pinned to core 0 (taskset -c 0)' : 'NOT pinned (no taskset)'}`);
  console.log(`  load average before (1/5/15 min): ${load()} on ${(await import('node:os')).cpus().length} cores (other processes share the machine)`);
  const node = [process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url)];
  const [command, ...args] = taskset ? ['taskset', '-c', '0', ...node] : node;
  // The hosted profile's vendor: its transcripts are the sentences over and over (what each human says matters little here).
  const deepgram = await startFakeDeepgramLive({
    apiKey: HOSTED_KEY,
    script: Array.from({ length: 4000 }, (_, index) => SENTENCES[index % SENTENCES.length]!),
    interimIntervalMs: 100,
    finalDelayMs: 150,
    finalizeDelayMs: 100,
    idleTimeoutMs: 600_000,
  });
  const child = spawn(command!, args, {
    stdio: 'inherit',
    env: { ...process.env, VOICE_CAPACITY_CHILD: '1', VOICE_CAPACITY_DEEPGRAM_URL: deepgram.url, PALAVER_LOG_LEVEL: 'silent' },
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  await deepgram.close();
  console.log(`  load average after: ${load()}`);
  process.exit(code ?? 1);
}

interface Speaker {
  human: HumanParticipant;
  said: Awaited<ReturnType<typeof fliteSpeech>>;
  stop: () => Promise<void>;
}

type AgentHost = ReturnType<typeof agentHostFor>;

interface CurvePoint {
  n: number;
  latencies: number[];
  missed: number;
  cpuSeconds: number;
  turns: number;
  /** CPU microseconds per turn of the busiest threads (`node#<pid>` is the main thread). */
  threads?: Array<readonly [thread: string, micros: number]>;
}

async function joinSpeakers(test: TestPlatform, host: AgentHost, n: number, speeches: Array<Awaited<ReturnType<typeof fliteSpeech>>>): Promise<Speaker[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, index) => {
      const identity = `capacity-${n}-${index}`;
      const spec = await sessionSpec(test, identity, { input: { turn_detection: TURN_DETECTION } });
      const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
      const handle = await host.start(spec, new RecordedEvents());
      await human.waitForState('listening', 60_000);
      const stop = async () => {
        await handle.stop();
        await human.leave();
      };
      return { human, said: speeches[index % speeches.length]!, stop };
    }),
  );
}

/** One round: every human speaks at once; the latency of each answer at its human, or undefined when none came. */
async function round(speakers: Speaker[], index: number): Promise<Array<number | undefined>> {
  return Promise.all(
    speakers.map(async ({ human }, which) => {
      const said = speakers[(which + index) % speakers.length]!.said;
      const finals = human.finalTranscriptions(true).length;
      const { speechEndedAt } = await human.say(said);
      const deadline = performance.now() + 30_000;
      while (human.finalTranscriptions(true).length <= finals && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await human.waitForState('listening', 60_000).catch(() => undefined);
      const heard = human.firstAudibleAfter(speechEndedAt);
      return heard ? heard.at - speechEndedAt : undefined;
    }),
  );
}

async function measure(
  test: TestPlatform,
  listening: Record<string, unknown>,
  n: number,
  speeches: Array<Awaited<ReturnType<typeof fliteSpeech>>>,
): Promise<CurvePoint> {
  const host = agentHostFor(test, { speech: Object.assign({}, test.server.services.speech, listening) });
  const speakers = await joinSpeakers(test, host, n, speeches);
  const point: CurvePoint = { n, latencies: [], missed: 0, cpuSeconds: 0, turns: 0 };
  // A round first, not measured: the pool's decoders and the sessions' engines start (steady state is measured).
  await round(speakers, ROUNDS);
  const before = process.cpuUsage();
  const ticks = threadTicks(process.pid);
  for (let index = 0; index < ROUNDS; index += 1) {
    for (const latency of await round(speakers, index)) {
      point.turns += 1;
      if (latency === undefined) point.missed += 1;
      else point.latencies.push(latency);
    }
  }
  const used = process.cpuUsage(before);
  point.cpuSeconds = (used.user + used.system) / 1e6;
  point.threads = cpuPerUnit(ticks, threadTicks(process.pid), point.turns).slice(0, 6);
  for (const speaker of speakers) await speaker.stop();
  await host.close();
  return point;
}

const test = await createTestPlatform();
const { speech } = test.server.services;
const stt = await speech.stt.status();
if (!stt.available) {
  console.log(`[skip] voice-capacity bench: no speech-to-text engine (${stt.reason})`);
  await test.close();
  process.exit(0);
}
/** The curve of one recogniser profile: N, p50, p95, CPU per turn, p50 against N = 1. */
async function curve(profile: Profile, speeches: Array<Awaited<ReturnType<typeof fliteSpeech>>>): Promise<void> {
  const listening = await profile.listening();
  console.log(`\n  ${profile.label}`);
  console.log('      N   p50 ms   p95 ms   CPU s/turn   p50 / N=1   no answer   given up');
  let baseline: number | undefined;
  try {
    for (const n of profile.counts) {
      const givenUp = listening.givenUp();
      const point = await measure(test, listening.speech, n, speeches);
      // A turn without an answer counts as the slowest: the percentiles of the answered turns alone would flatter.
      const latencies = [...point.latencies, ...Array.from({ length: point.missed }, () => Number.POSITIVE_INFINITY)];
      const p50 = percentile(latencies, 50);
      baseline ??= p50;
      console.log(
        `    ${String(n).padStart(3)}   ${fixed(p50, 0).padStart(6)}   ${fixed(percentile(latencies, 95), 0).padStart(6)}   ${fixed(point.cpuSeconds / point.turns, 2).padStart(10)}   ${fixed(p50 / baseline, 2).padStart(9)}   ${`${point.missed}/${point.turns}`.padStart(9)}   ${String(listening.givenUp() - givenUp).padStart(8)}`,
      );
      const main = `#${process.pid}`;
      const threads = (point.threads ?? []).map(([thread, micros]) => `${thread.endsWith(main) ? 'main' : thread.split('#')[0]} ${fixed(micros / 1e6, 2)}`);
      console.log(`          CPU s/turn by thread: ${threads.join(', ')}`);
    }
  } finally {
    await listening.close();
  }
}

try {
  if (wanted('wer')) {
    // Word error of both search settings on the same audio: the corpus and the sentences in three voices.
    const spoken = await spokenTexts(SENTENCES);
    console.log(`\n  word error (${spoken.length} utterances: the turn-taking corpus, the sentences below in Flite slt, rms and kal16; decoded whole)`);
    const accurate = await wordErrorOf(spoken, { search: 'accurate' });
    const fast = await wordErrorOf(spoken, { search: 'fast' });
    console.log(`    accurate (before)  ${fixed(accurate.wordError * 100, 1)} %, ${fixed(accurate.cpuPerAudioSecond, 3)} CPU s per s of speech`);
    console.log(`    fast (after)       ${fixed(fast.wordError * 100, 1)} %, ${fixed(fast.cpuPerAudioSecond, 3)} CPU s per s of speech`);
    console.log(
      `    ratio              word error ${fixed(fast.wordError / accurate.wordError, 2)}, CPU ${fixed(fast.cpuPerAudioSecond / accurate.cpuPerAudioSecond, 2)} (fast / accurate)`,
    );
  }
  const speeches = [];
  for (const sentence of SENTENCES) speeches.push(await fliteSpeech(speech, sentence));
  const seconds = speeches.map((said) => said.speechEndMs / 1000);
  console.log(
    `\n  adaptive turn detection, the offline model, Flite slt: ${ROUNDS} rounds per N after one not measured, sentences ${fixed(Math.min(...seconds), 1)}-${fixed(Math.max(...seconds), 1)} s of speech`,
  );
  for (const profile of PROFILES.filter((candidate) => wanted(candidate.name))) await curve(profile, speeches);
} finally {
  await test.close();
}
