/**
 * Held-out turn detection for `pnpm bench voice-agent`: the end-of-turn waits are tuned on the corpus said by some
 * voices and reported on the same corpus said by voices nothing was tuned on.
 */
import {
  runTurnCorpus,
  type CorpusStt,
  type TurnCorpusItem,
  type TurnCorpusOptions,
  type TurnCorpusOutcome,
  type TurnDetectionOptions,
} from '@palaver/sdk-core/testing';
import { fixed, percentile } from './statistics.js';

/** The premature rate the issue allows, on pauses up to `PAUSE_LIMIT_MS`. */
export const PREMATURE_TARGET = 0.05;
export const PAUSE_LIMIT_MS = 700;

export interface CorpusRun {
  items: TurnCorpusItem[];
  audio(item: TurnCorpusItem): Promise<{ pcm: Int16Array; sampleRate: number }>;
  /** The STT per utterance (hosted: a fake vendor of its own); the platform's otherwise. */
  sttFor?: (item: TurnCorpusItem) => Promise<CorpusStt>;
  concurrency: number;
  /** `sip`: the speaker is a phone caller (the recogniser adapted to narrowband speech, decision 0124). */
  participantKind?: TurnCorpusOptions['participantKind'];
}

export interface CorpusSummary {
  outcomes: TurnCorpusOutcome[];
  /** Premature turn ends on utterances whose pause is at most `PAUSE_LIMIT_MS`. */
  premature: number;
  prematureCount: number;
  within: number;
  /** The end of the last turn after the speech, p50 and p95 (ms). */
  endP50: number;
  endP95: number;
  /** Utterances whose last turn's text is the words said (hosted: the script, with its seeded errors off). */
  heardRight: number;
}

type Speech = Parameters<typeof runTurnCorpus>[0];

const pauseOf = (item: TurnCorpusItem) => item.resumeMs - item.pauseStartMs;
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');

export async function runCorpus(speech: Speech, settings: TurnDetectionOptions, run: CorpusRun): Promise<CorpusSummary> {
  const outcomes = await runTurnCorpus(speech, settings, {
    items: run.items,
    audio: run.audio,
    concurrency: run.concurrency,
    ...(run.sttFor ? { sttFor: run.sttFor } : {}),
    ...(run.participantKind ? { participantKind: run.participantKind } : {}),
  });
  const within = outcomes.filter((outcome) => pauseOf(outcome.item) <= PAUSE_LIMIT_MS);
  const prematureCount = within.filter((outcome) => outcome.premature).length;
  const ends = outcomes.flatMap((outcome) => (outcome.endAfterSpeechMs === undefined ? [] : [outcome.endAfterSpeechMs]));
  const heardRight = outcomes.filter((outcome) => words(outcome.texts.join(' ')) === words(`${outcome.item.before} ${outcome.item.after}`)).length;
  return {
    outcomes,
    premature: within.length > 0 ? prematureCount / within.length : 0,
    prematureCount,
    within: within.length,
    endP50: ends.length > 0 ? percentile(ends, 50) : Number.NaN,
    endP95: ends.length > 0 ? percentile(ends, 95) : Number.NaN,
    heardRight,
  };
}

export function summaryLine(summary: CorpusSummary): string {
  const cut = summary.outcomes
    .filter((outcome) => outcome.premature)
    .map((outcome) => `${outcome.item.id} (pause ${pauseOf(outcome.item)} ms: ${outcome.texts.map((text) => `"${text}"`).join(' + ')})`);
  return (
    `premature ${summary.prematureCount}/${summary.within} (${fixed(summary.premature * 100, 1)} %) on pauses <= ${PAUSE_LIMIT_MS} ms, ` +
    `end of the last turn after the speech p50 ${fixed(summary.endP50, 0)} ms, p95 ${fixed(summary.endP95, 0)} ms; ` +
    `words heard as said ${summary.heardRight}/${summary.outcomes.length}` +
    (cut.length > 0 && (cut.length <= 6 || process.env.VOICE_AGENT_VERBOSE === '1') ? `\n        cut in: ${cut.join(', ')}` : '')
  );
}

/** The waits tried: the platform's defaults and their neighbours. */
export const WAIT_GRID: ReadonlyArray<{ minWaitMs: number; maxWaitMs: number }> = [
  { minWaitMs: 160, maxWaitMs: 1000 },
  { minWaitMs: 160, maxWaitMs: 1200 },
  { minWaitMs: 200, maxWaitMs: 1000 },
  { minWaitMs: 200, maxWaitMs: 1200 },
  { minWaitMs: 250, maxWaitMs: 1200 },
  { minWaitMs: 200, maxWaitMs: 1500 },
];

/**
 * Tries each wait of the grid on the tuning corpus: the fastest (end of the last turn, p50) whose premature rate is
 * within the target, else the least premature.
 */
export async function tuneWaits(
  speech: Speech,
  base: TurnDetectionOptions,
  run: CorpusRun,
  log: (line: string) => void,
): Promise<{ settings: TurnDetectionOptions; summary: CorpusSummary }> {
  let best: { settings: TurnDetectionOptions; summary: CorpusSummary } | undefined;
  for (const waits of WAIT_GRID) {
    const settings = { ...base, ...waits };
    const summary = await runCorpus(speech, settings, run);
    log(`      min ${waits.minWaitMs} / max ${waits.maxWaitMs} ms: ${summaryLine(summary).split('\n')[0]}`);
    if (!best || better(summary, best.summary)) best = { settings, summary };
  }
  return best!;
}

function better(candidate: CorpusSummary, best: CorpusSummary): boolean {
  const ok = (summary: CorpusSummary) => summary.premature <= PREMATURE_TARGET;
  if (ok(candidate) !== ok(best)) return ok(candidate);
  if (!ok(candidate)) return candidate.premature < best.premature || (candidate.premature === best.premature && candidate.endP50 < best.endP50);
  return candidate.endP50 < best.endP50;
}
