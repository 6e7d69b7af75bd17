/**
 * Voice agent turn latency and turn taking: a human participant says Flite sentences into a realtime session's
 * room and the agent (embedded media endpoint, Silero/energy VAD, pocketsphinx STT, Flite TTS) answers.
 * Measured at the human: end of speech -> first audible agent audio, per turn, for each profile:
 *   - adaptive turn detection with the offline model (the default),
 *   - a fixed 550 ms silence (the behaviour before adaptive turn detection),
 *   - adaptive with a hosted-like LLM: a local fake OpenAI upstream, 200 ms to the first token, ~30 tokens/s,
 *   - adaptive with hosted streaming STT (a local fake Deepgram speaking its live protocol: interims every ~100 ms,
 *     `Finalize` answered after 100 ms, the endpointing final 150 ms after the speech, `VOICE_AGENT_WER` word errors,
 *     default 0.07, about what Deepgram states for its streaming English model) and with the offline model, each said by the tuning voices and by held-out voices.
 * Baseline, measured in the same run on the same audio: the profile's floor with the engines called directly =
 * the turn-end rule's shortest wait (fixed: the silence + the STT final; adaptive: the pause + the STT final of the
 * segment, at least `min_wait_ms`) + the TTS's first audio of the answer. Ratio = end to end / floor.
 * Turn taking: the corpus (`packages/sdk-core/tests/fixtures/turn-corpus`, utterances with a 300-800 ms pause
 * inside, Flite and eSpeak voices) through the agent's listener with each rule: how often the turn ends during
 * the pause (premature), and how many answers prepared at pauses would be thrown away.
 * Held out: the end-of-turn waits (min/max) are tuned on the corpus said by Flite slt, rms and eSpeak en-us (hosted
 * STT), then reported on the corpus said by Flite awb, kal16 and two eSpeak British voices nothing was tuned on
 * (premature on pauses up to 700 ms; end of the last turn after the speech), and the agent profiles above use them.
 * Needs pocketsphinx (skips with a reason without it).
 *
 * Run: `pnpm bench voice-agent`; `VOICE_AGENT_ONLY=hosted pnpm bench voice-agent` runs only the profiles (or the
 * `barge-in` and `corpus` parts) whose name contains one of the comma-separated words.
 */
import {
  DEFAULT_TURN_DETECTION,
  HumanParticipant,
  RecordedEvents,
  agentHostFor,
  createTestPlatform,
  fliteSpeech,
  offlineAnswer,
  runTurnCorpus,
  sessionSpec,
  startFakeOpenAiUpstream,
  firstTokenChunks,
  type TurnCorpusOutcome,
  collectSynthesis,
  resampleLinear,
  speechBounds,
  startHostedStreamingStt,
  voicedTurnCorpus,
  HELD_OUT_VOICES,
  TUNING_VOICES,
  type CorpusVoice,
  type TurnCorpusItem,
  type TurnDetectionOptions,
} from '@palaver/sdk-core/testing';
import type { RealtimeSessionTurnDetection } from '@palaver/sdk-core';
import type { TurnMetrics } from '@palaver/sdk-core/testing';
import { fixed, percentile } from './statistics.js';
import { PREMATURE_TARGET, runCorpus, summaryLine, tuneWaits, type CorpusRun } from './turn-tuning.js';

const ALL_SENTENCES = [
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
  'My phone battery is almost empty.',
  'Please send me the invoice by email.',
  'How do I reset my password?',
  'The meeting starts at ten o clock.',
];
/** `VOICE_AGENT_TURNS` sentences (all 20 by default). */
const SENTENCES = ALL_SENTENCES.slice(0, Number(process.env.VOICE_AGENT_TURNS ?? ALL_SENTENCES.length));
/** What the hosted-like model answers, one token per chunk at ~30 tokens/s after 200 ms. */
const HOSTED_ANSWER = 'Sure, I can help with that. Here is what I would suggest for you today.'.split(/(?= )/);
const HOSTED_FIRST_TOKEN_MS = 200;
const HOSTED_TOKEN_INTERVAL_MS = 33;
/** The hosted streaming STT profile: the fake Deepgram's word error rate, its final after the speech and its answer to `Finalize`. */
const HOSTED_WER = Number(process.env.VOICE_AGENT_WER ?? 0.07);
const HOSTED_TIMING = { finalDelayMs: 150, finalizeDelayMs: 100, interimIntervalMs: 100 };

const test = await createTestPlatform();
await test.server.listen(0, '127.0.0.1');
const { speech } = test.server.services;
const stt = await speech.stt.status();
if (!stt.available) {
  console.log(`[skip] voice-agent bench: no speech-to-text engine (${stt.reason})`);
  await test.close();
  process.exit(0);
}
const upstream = await startFakeOpenAiUpstream();
upstream.answerByDefault({
  kind: 'stream',
  chunks: firstTokenChunks(HOSTED_ANSWER),
  firstChunkDelayMs: HOSTED_FIRST_TOKEN_MS,
  delayMs: HOSTED_TOKEN_INTERVAL_MS,
});
const hostedLlm = await test.server.services.llms.create(
  { project: test.server.project, kind: 'key', human: null, credentialId: 'bench' },
  {
    name: 'hosted-like',
    description: 'fake OpenAI upstream: 200 ms to the first token, ~30 tokens/s',
    headers: [],
    model: 'hosted-like',
    post_url: upstream.chatUrl,
  },
);

/** Parts of the run to do (all unless `VOICE_AGENT_ONLY` names some). */
const only = (process.env.VOICE_AGENT_ONLY ?? '')
  .split(',')
  .map((word) => word.trim())
  .filter(Boolean);
const wanted = (name: string) => only.length === 0 || only.some((word) => name.includes(word));

interface Profile {
  name: string;
  turnDetection: RealtimeSessionTurnDetection;
  llm?: string;
  /** Hosted streaming STT (a fake Deepgram) instead of the offline model. */
  hosted?: boolean;
  /** Who says the sentences, in turn (Flite slt by default). */
  voices?: readonly CorpusVoice[];
}
const adaptive: RealtimeSessionTurnDetection = { mode: 'adaptive', silence_ms: 550, min_wait_ms: 200, max_wait_ms: 1200, preemptive: true };
function profilesWith(tuned: RealtimeSessionTurnDetection): Profile[] {
  return [
    { name: 'adaptive, offline model', turnDetection: adaptive },
    { name: 'fixed 550 ms (before), offline model', turnDetection: { ...adaptive, mode: 'fixed' } },
    { name: 'adaptive, hosted-like LLM (200 ms first token, 30 tokens/s)', turnDetection: adaptive, llm: hostedLlm.id },
    { name: 'adaptive (tuned waits), offline model, tuning voices', turnDetection: tuned, voices: TUNING_VOICES },
    { name: 'adaptive (tuned waits), offline model, held-out voices', turnDetection: tuned, voices: HELD_OUT_VOICES },
    { name: `adaptive (tuned waits), hosted streaming STT (WER ${HOSTED_WER}), tuning voices`, turnDetection: tuned, hosted: true, voices: TUNING_VOICES },
    { name: `adaptive (tuned waits), hosted streaming STT (WER ${HOSTED_WER}), held-out voices`, turnDetection: tuned, hosted: true, voices: HELD_OUT_VOICES },
  ];
}

/** `text` said by `voice` (Flite slt by default), with where its speech starts and ends. */
async function voiceSpeech(text: string, voice: CorpusVoice | undefined): Promise<Awaited<ReturnType<typeof fliteSpeech>>> {
  if (!voice) return fliteSpeech(speech, text);
  const synthesized = await collectSynthesis(speech.tts.synthesize({ voice: voice.selection, text }));
  // The human's microphone sends 16 kHz (eSpeak speaks at 22.05 kHz).
  const sampleRate = 16_000;
  const pcm = resampleLinear(synthesized.pcm, synthesized.sampleRate, sampleRate);
  const { first, last } = speechBounds(pcm);
  return { pcm, sampleRate, speechStartMs: (first / sampleRate) * 1000, speechEndMs: (last / sampleRate) * 1000 };
}

/** Pushes PCM into an STT session at the pace a microphone delivers it; resolves with the final's latency. */
async function sttFinalMs(pcm: Int16Array, sampleRate: number, stt: Pick<typeof speech.stt, 'createSession'>): Promise<number> {
  const session = stt.createSession({ sampleRate });
  const frame = Math.round(sampleRate * 0.02);
  const started = performance.now();
  for (let offset = 0, index = 0; offset < pcm.length; offset += frame, index += 1) {
    session.push(pcm.subarray(offset, offset + frame));
    const due = started + (index + 1) * 20;
    if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
  }
  const finishing = performance.now();
  await session.finish();
  session.close();
  return performance.now() - finishing;
}

async function ttsFirstAudioMs(text: string): Promise<number> {
  const started = performance.now();
  const iterator = speech.tts.synthesize({ voice: { service: 'flite', voice: 'slt' }, text })[Symbol.asyncIterator]();
  await iterator.next();
  const elapsed = performance.now() - started;
  await iterator.return?.();
  return elapsed;
}

/** The profile's floor for one turn, engines called directly on the same audio and answer. */
async function floorMs(profile: Profile, pcm: Int16Array, sampleRate: number, answer: string, stt: Pick<typeof speech.stt, 'createSession'>): Promise<number> {
  const sttMs = await sttFinalMs(pcm, sampleRate, stt);
  const ttsMs = await ttsFirstAudioMs(answer);
  const { mode, silence_ms: silence, min_wait_ms: minWait } = profile.turnDetection;
  const decision = mode === 'fixed' ? silence + sttMs : Math.max(minWait, DEFAULT_TURN_DETECTION.pauseMs + sttMs);
  return decision + ttsMs;
}

interface ProfileResult {
  heard: string[];
  /** How the turn detector read each turn's words at the pause that ended it (adaptive). */
  readings: Array<TurnMetrics['endOfTurn']>;
  /** The agent's own timings of each turn. */
  views: string[];
  /** The agent's own medians (turn_metrics). */
  agentView: string;
  endToEnd: number[];
  floors: number[];
  /** With the fake upstream: the end of the human's speech -> the upstream receiving the request of the answer played. */
  asked: number[];
  prepared: number;
  discarded: number;
}

let humans = 0;
async function runProfile(profile: Profile): Promise<ProfileResult> {
  const metrics: TurnMetrics[] = [];
  // Hosted: the agent's fake vendor hears the sentences in order; the floor's, called directly, another of the same.
  const hosted = profile.hosted ? await startHostedStreamingStt({ script: SENTENCES, wordErrorRate: HOSTED_WER, ...HOSTED_TIMING }) : undefined;
  const floorHosted = profile.hosted ? await startHostedStreamingStt({ script: SENTENCES, wordErrorRate: HOSTED_WER, ...HOSTED_TIMING }) : undefined;
  const listening = hosted ? { speech: { tts: speech.tts, vad: speech.vad, stt: hosted.stt } } : {};
  const host = agentHostFor(test, { onTurnMetrics: (turn) => metrics.push(turn), ...listening });
  const result: ProfileResult = { heard: [], readings: [], views: [], agentView: '', endToEnd: [], floors: [], asked: [], prepared: 0, discarded: 0 };
  try {
    const identity = `bench-human-${(humans += 1)}`;
    const llm = profile.llm ? await test.client.llms.retrieve(profile.llm) : undefined;
    const spec = await sessionSpec(test, identity, { input: { turn_detection: profile.turnDetection }, ...(llm ? { generative: { llm } } : {}) });
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
    const handle = await host.start(spec, new RecordedEvents());
    await human.waitForState('listening');
    for (const [index, sentence] of SENTENCES.entries()) {
      const said = await voiceSpeech(sentence, profile.voices?.[index % profile.voices.length]);
      const requestsBefore = upstream.requests.length;
      const { speechEndedAt } = await human.say(said);
      const deadline = performance.now() + 20_000;
      while (human.finalTranscriptions(true).length < index + 1 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await human.waitForState('listening');
      const heard = human.firstAudibleAfter(speechEndedAt);
      if (!heard) throw new Error(`${profile.name}, turn ${index + 1}: no agent audio`);
      result.endToEnd.push(heard.at - speechEndedAt);
      const played = profile.llm ? upstream.requests.slice(requestsBefore).at(-1) : undefined;
      if (played) result.asked.push(played.receivedAt - speechEndedAt);
      result.heard.push(human.finalTranscriptions(false)[index]?.text ?? '');
      const answer = profile.llm ? HOSTED_ANSWER.join('') : offlineAnswer(human.finalTranscriptions(false)[index]?.text ?? sentence);
      const trimmed = said.pcm.subarray(0, Math.round((said.speechEndMs / 1000) * said.sampleRate));
      result.floors.push(await floorMs(profile, trimmed, said.sampleRate, answer, floorHosted?.stt ?? speech.stt));
    }
    await handle.stop();
    await human.leave();
  } finally {
    await host.close();
    await hosted?.close();
    await floorHosted?.close();
  }
  const voiceTurns = metrics.filter((turn) => turn.source === 'voice');
  result.readings = voiceTurns.map((turn) => turn.endOfTurn);
  result.views = voiceTurns.map(
    (turn) => `agent: decision ${fixed(turn.endOfSpeechDecisionMs ?? Number.NaN, 0)} ms, response ${fixed(turn.responseMs ?? Number.NaN, 0)} ms`,
  );
  result.prepared = voiceTurns.filter((turn) => turn.preparedAnswer).length;
  const median = (pick: (turn: (typeof voiceTurns)[number]) => number | undefined) => {
    const values = voiceTurns.map(pick).filter((value): value is number => value !== undefined);
    return values.length > 0 ? fixed(percentile(values, 50), 0) : '-';
  };
  result.agentView = `end-of-turn decision ${median((turn) => turn.endOfSpeechDecisionMs)} ms, LLM first token ${median((turn) => turn.llmFirstTokenMs)} ms (from its request), TTS first audio ${median((turn) => turn.ttsFirstAudioMs)} ms, response ${median((turn) => turn.responseMs)} ms`;
  result.discarded = voiceTurns.reduce((sum, turn) => sum + (turn.discardedAnswers ?? 0), 0);
  return result;
}

/** Barge-in: the agent says a long text; the human speaks over it. Time to the agent's last audible frame. */
async function bargeIn(trials: number): Promise<number[]> {
  const host = agentHostFor(test);
  const stops: number[] = [];
  try {
    const identity = 'bench-barge-in';
    const spec = await sessionSpec(test, identity, { input: { turn_detection: adaptive } });
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
    const handle = await host.start(spec, new RecordedEvents());
    await human.waitForState('listening');
    const interruption = await fliteSpeech(speech, 'Wait, stop talking please.');
    for (let trial = 0; trial < trials; trial += 1) {
      await handle.speak('Let me tell you a long story about the sea and the ships that sail on it, from the harbour to the open ocean. '.repeat(3).trim());
      await human.waitForState('speaking');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const saying = human.say(interruption);
      const startedAt = performance.now() + interruption.speechStartMs;
      await saying;
      await human.waitForState('listening');
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const last = human.lastAudibleBeforeQuiet(startedAt);
      stops.push(Math.max(0, (last?.at ?? startedAt) - startedAt));
      await human.waitForState('listening');
    }
    await handle.stop();
    await human.leave();
  } finally {
    await host.close();
  }
  return stops;
}

function corpusLine(outcomes: TurnCorpusOutcome[]): string {
  const premature = outcomes.filter((outcome) => outcome.premature);
  const pauses = outcomes.reduce((sum, outcome) => sum + outcome.pauses.length, 0);
  const resumed = outcomes.reduce((sum, outcome) => sum + outcome.resumptions, 0);
  const byVoice = [...new Set(outcomes.map((outcome) => outcome.item.voice.split('-')[0]!))]
    .map((voice) => {
      const mine = outcomes.filter((outcome) => outcome.item.voice.startsWith(voice));
      return `${voice} ${mine.filter((outcome) => outcome.premature).length}/${mine.length}`;
    })
    .join(', ');
  const which =
    premature.length > 0 && premature.length <= 6
      ? `\n      cut in: ${premature.map((outcome) => `${outcome.item.id} (${outcome.texts.map((text) => `"${text}"`).join(' + ')})`).join(', ')}`
      : '';
  const ends = outcomes.flatMap((outcome) => (outcome.endAfterSpeechMs === undefined ? [] : [outcome.endAfterSpeechMs]));
  const endLine =
    ends.length > 0 ? `; end of the last turn after the speech p50 ${fixed(percentile(ends, 50), 0)} ms, p90 ${fixed(percentile(ends, 90), 0)} ms` : '';
  return `premature ${premature.length}/${outcomes.length} (${fixed((premature.length / outcomes.length) * 100, 1)} %; ${byVoice}); answers prepared at pauses and thrown away: ${resumed} of ${pauses} pauses${endLine}${which}`;
}

/** The hosted profile on the corpus: each utterance heard by a fake Deepgram of its own, scripted with its words. */
function hostedCorpusRun(corpus: Awaited<ReturnType<typeof voicedTurnCorpus>>): CorpusRun {
  return {
    ...corpus,
    concurrency: 5,
    sttFor: async (item: TurnCorpusItem) => {
      const seed = [...item.id].reduce((sum, character) => (sum * 31 + character.charCodeAt(0)) % 100_003, 7);
      const hosted = await startHostedStreamingStt({ script: [item.before, item.after], wordErrorRate: HOSTED_WER, seed, ...HOSTED_TIMING });
      return { stt: hosted.stt, release: () => hosted.close() };
    },
  };
}

/**
 * Tunes the waits on the tuning voices (hosted STT) and reports them on the held-out voices, hosted and offline, with
 * the fixed 550 ms silence on the same held-out audio as the baseline. Returns the waits chosen.
 */
async function heldOutTurnTaking(): Promise<RealtimeSessionTurnDetection> {
  const [tuning, heldOut] = [await voicedTurnCorpus(speech, TUNING_VOICES), await voicedTurnCorpus(speech, HELD_OUT_VOICES)];
  console.log(
    `\n  held-out turn detection: the corpus's ${tuning.items.length / TUNING_VOICES.length} utterances (a 300-800 ms pause inside) said by each voice`,
  );
  console.log(`    tuning voices ${TUNING_VOICES.map((voice) => voice.id).join(', ')}; held out ${HELD_OUT_VOICES.map((voice) => voice.id).join(', ')}`);
  console.log(`    tuning the waits, hosted streaming STT on the tuning voices (target: premature <= ${PREMATURE_TARGET * 100} %, then the fastest end):`);
  const base: TurnDetectionOptions = DEFAULT_TURN_DETECTION;
  // `VOICE_AGENT_WAITS=160,1200` takes waits tuned before instead of trying the grid again.
  const given = process.env.VOICE_AGENT_WAITS?.split(',').map(Number);
  const best = given
    ? {
        settings: { ...base, minWaitMs: given[0]!, maxWaitMs: given[1]! },
        summary: await runCorpus(speech, { ...base, minWaitMs: given[0]!, maxWaitMs: given[1]! }, hostedCorpusRun(tuning)),
      }
    : await tuneWaits(speech, base, hostedCorpusRun(tuning), (line) => console.log(line));
  const tuned = best.settings;
  console.log(`    chosen       min ${tuned.minWaitMs} / max ${tuned.maxWaitMs} ms (defaults ${base.minWaitMs} / ${base.maxWaitMs})`);
  console.log(`    hosted STT   tuning voices   ${summaryLine(best.summary)}`);
  const hostedHeldOut = await runCorpus(speech, tuned, hostedCorpusRun(heldOut));
  console.log(`    hosted STT   held-out voices ${summaryLine(hostedHeldOut)}`);
  const hostedFixed = await runCorpus(speech, { ...tuned, mode: 'fixed', silenceMs: 550 }, hostedCorpusRun(heldOut));
  console.log(`    hosted STT   held-out voices, fixed 550 ms (baseline) ${summaryLine(hostedFixed)}`);
  console.log(`    ratio        ${fixed(hostedHeldOut.endP50 / hostedFixed.endP50, 2)} (held out, end of the last turn p50: adaptive / fixed 550 ms)`);
  const offlineTuning = await runCorpus(speech, tuned, { ...tuning, concurrency: 3 });
  console.log(`    offline      tuning voices   ${summaryLine(offlineTuning)}`);
  const offlineHeldOut = await runCorpus(speech, tuned, { ...heldOut, concurrency: 3 });
  console.log(`    offline      held-out voices ${summaryLine(offlineHeldOut)}`);
  return { ...adaptive, min_wait_ms: tuned.minWaitMs, max_wait_ms: tuned.maxWaitMs };
}

try {
  const waits = process.env.VOICE_AGENT_WAITS?.split(',').map(Number);
  const given = waits ? { ...adaptive, min_wait_ms: waits[0]!, max_wait_ms: waits[1]! } : adaptive;
  const tuned = wanted('held-out') ? await heldOutTurnTaking() : given;
  const profiles = profilesWith(tuned);
  console.log(`\nvoice agent, ${SENTENCES.length} spoken turns per profile (end of human speech -> first audible agent audio, at the human)`);
  for (const profile of profiles.filter((candidate) => wanted(candidate.name))) {
    const result = await runProfile(profile);
    const p50 = percentile(result.endToEnd, 50);
    const p95 = percentile(result.endToEnd, 95);
    const floor50 = percentile(result.floors, 50);
    console.log(`\n  ${profile.name}`);
    console.log(`    end to end   p50 ${fixed(p50, 0)} ms, p95 ${fixed(p95, 0)} ms  [${result.endToEnd.map((value) => fixed(value, 0)).join(', ')}]`);
    console.log(`    floor        p50 ${fixed(floor50, 0)} ms (the rule's shortest wait + STT final + TTS first audio, engines called directly)`);
    console.log(`    ratio        ${fixed(p50 / floor50, 2)} (end to end / floor)`);
    console.log(`    agent's view ${result.agentView}`);
    const slowest = result.endToEnd.indexOf(Math.max(...result.endToEnd));
    console.log(`    slowest      turn ${slowest + 1}: "${SENTENCES[slowest]}" heard as "${result.heard[slowest]}"`);
    const reading = (index: number) => {
      const turn = result.readings[index];
      const view = process.env.VOICE_AGENT_VERBOSE === '1' && result.views[index] ? `; ${result.views[index]}` : '';
      return turn ? `, read as ${turn.reason} (p ${fixed(turn.probability, 2)}), waited ${fixed(turn.waitMs, 0)} ms${view}` : view;
    };
    const slow = result.endToEnd.flatMap((value, index) =>
      value > 500 ? [`${index + 1} (${fixed(value, 0)} ms, heard "${result.heard[index]}"${reading(index)})`] : [],
    );
    const listAll = slow.length > 0 && (slow.length <= 6 || process.env.VOICE_AGENT_VERBOSE === '1');
    console.log(`    over 500 ms  ${slow.length} of ${result.endToEnd.length} turns${listAll ? `: ${slow.join(', ')}` : ''}`);
    if (profile.turnDetection.mode === 'adaptive')
      console.log(`    prepared answers played: ${result.prepared} of ${SENTENCES.length} turns; thrown away: ${result.discarded}`);
    if (result.asked.length > 0) {
      // A prepared answer is asked for at the pause, before the end-of-turn decision (the agent's view above).
      console.log(
        `    asked        p50 ${fixed(percentile(result.asked, 50), 0)} ms after the speech ended (the request of the answer played, at the upstream); first audio p50 ${fixed(p50, 0)} ms`,
      );
    }
  }
  const stops = wanted('barge-in') ? await bargeIn(5) : [];
  if (stops.length > 0)
    console.log(
      `\n  barge-in (adaptive): the agent's audio stops p50 ${fixed(percentile(stops, 50), 0)} ms, max ${fixed(Math.max(...stops), 0)} ms after the human starts speaking  [${stops.map((value) => fixed(value, 0)).join(', ')}]`,
    );
  if (wanted('corpus')) {
    console.log(`\n  turn taking on the corpus (listener with real VAD and STT, real time)`);
    const adaptiveCorpus = await runTurnCorpus(speech, DEFAULT_TURN_DETECTION);
    console.log(`    adaptive     ${corpusLine(adaptiveCorpus)}`);
    const fixedCorpus = await runTurnCorpus(speech, { ...DEFAULT_TURN_DETECTION, mode: 'fixed', silenceMs: 550 });
    console.log(`    fixed 550 ms ${corpusLine(fixedCorpus)}`);
    // The same utterances: the end of the last turn after the last word, adaptive against the fixed silence (baseline).
    const endsOf = (outcomes: TurnCorpusOutcome[]) => outcomes.flatMap((outcome) => (outcome.endAfterSpeechMs === undefined ? [] : [outcome.endAfterSpeechMs]));
    const [adaptiveEnds, fixedEnds] = [endsOf(adaptiveCorpus), endsOf(fixedCorpus)];
    if (adaptiveEnds.length > 0 && fixedEnds.length > 0) {
      console.log(
        `    ratio        ${fixed(percentile(adaptiveEnds, 50) / percentile(fixedEnds, 50), 2)} (end of the last turn after the speech, p50: adaptive / fixed 550 ms)`,
      );
    }
  }
} finally {
  await upstream.close();
  await test.close();
}
