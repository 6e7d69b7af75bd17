/**
 * The phone caller's turn detection for `pnpm bench telephony` (TELEPHONY_ONLY=turns): the corpus's utterances (a
 * 300-800 ms pause inside) said by the tuning voices, passed through G.711 as a phone and the SIP endpoint carry them,
 * heard by the platform's offline recogniser. How far the words' confidences are trusted (`unsureWordConfidence`,
 * `mostlyUnsureProbability`) is tried on the tuning voices; the server's settings and the best of the others are then
 * reported on held-out voices (decision 0107: none is within the cut-in target but the server's). First, the server's
 * settings with the room decoder and with the phone caller's adapted one (`phoneAdaptation`, decision 0124); TELEPHONY_TURNS_GRID=no stops there.
 */
import {
  DEFAULT_TURN_DETECTION,
  HELD_OUT_VOICES,
  PocketsphinxEngine,
  TUNING_VOICES,
  phoneLine,
  voicedTurnCorpus,
  type TurnCorpusItem,
  type TurnCorpusOutcome,
  type TurnDetectionOptions,
} from '@palaver/sdk-core/testing';
import { fixed } from './statistics.js';
import { PREMATURE_TARGET, runCorpus, summaryLine, type CorpusRun, type CorpusSummary } from './turn-tuning.js';

type Speech = Parameters<typeof runCorpus>[0] & Parameters<typeof voicedTurnCorpus>[0];

/**
 * What is tried: the confidence under which a word is unsure (the server's `UNSURE_WORD_CONFIDENCE` 0.5) and the most a
 * mostly unsure reading may say the turn ended (the server's `MOSTLY_UNSURE_PROBABILITY` 0.4: a 560 ms wait; 0.5:
 * 450 ms; 0.6: 360 ms). The first is the server's settings.
 */
const GRID: ReadonlyArray<{ unsureWordConfidence: number; mostlyUnsureProbability: number }> = [
  { unsureWordConfidence: 0.5, mostlyUnsureProbability: 0.4 },
  { unsureWordConfidence: 0.5, mostlyUnsureProbability: 0.5 },
  { unsureWordConfidence: 0.5, mostlyUnsureProbability: 0.6 },
  { unsureWordConfidence: 0.3, mostlyUnsureProbability: 0.4 },
  { unsureWordConfidence: 0.3, mostlyUnsureProbability: 0.5 },
  { unsureWordConfidence: 0.3, mostlyUnsureProbability: 0.6 },
];

/** The corpus through the phone line, heard by the server's recogniser or as a phone caller by `adapted` (decision 0124). */
function phoneRun(corpus: Awaited<ReturnType<typeof voicedTurnCorpus>>, adapted?: PocketsphinxEngine): CorpusRun {
  return {
    items: corpus.items,
    audio: async (item: TurnCorpusItem) => {
      const said = await corpus.audio(item);
      return phoneLine(said.pcm, said.sampleRate);
    },
    concurrency: 3,
    ...(adapted ? { participantKind: 'sip' as const, sttFor: async () => ({ stt: adapted, release: async () => undefined }) } : {}),
  };
}

/** How the turns that ended were read: "reason p" counts, e.g. "statement 0.85 x20, unsure 0.40 x25". */
function readings(outcomes: TurnCorpusOutcome[]): string {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) {
    const key = outcome.endOfTurn ? `${outcome.endOfTurn.reason} ${fixed(outcome.endOfTurn.probability, 2)}` : 'no reading';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([key, count]) => `${key} x${count}`)
    .join(', ');
}

function better(candidate: CorpusSummary, best: CorpusSummary): boolean {
  const ok = (summary: CorpusSummary) => summary.premature <= PREMATURE_TARGET;
  if (ok(candidate) !== ok(best)) return ok(candidate);
  if (!ok(candidate)) return candidate.premature < best.premature;
  return candidate.endP50 < best.endP50;
}

export async function phoneTurnTaking(speech: Speech): Promise<void> {
  const [tuning, heldOut] = [await voicedTurnCorpus(speech, TUNING_VOICES), await voicedTurnCorpus(speech, HELD_OUT_VOICES)];
  const server: TurnDetectionOptions = DEFAULT_TURN_DETECTION;
  console.log(`\nphone turn detection: the corpus through G.711 (PCMU) and the SIP endpoint's decoder, offline recogniser`);
  console.log(`  tuning voices ${TUNING_VOICES.map((voice) => voice.id).join(', ')}; held out ${HELD_OUT_VOICES.map((voice) => voice.id).join(', ')}`);
  console.log(`  server settings, the room decoder (the server's) and the phone caller's adapted one (phoneAdaptation):`);
  const adaptedStt = new PocketsphinxEngine({ phoneAdaptation: true });
  await adaptedStt.warmUp({ narrowband: true });
  for (const [group, corpus] of [
    ['tuning voices', tuning],
    ['held-out voices', heldOut],
  ] as const) {
    for (const adapted of [undefined, adaptedStt]) {
      const summary = await runCorpus(speech, server, phoneRun(corpus, adapted));
      console.log(`    ${group}, ${adapted ? 'phone decoder' : 'room decoder '}: ${summaryLine(summary)}\n          read as ${readings(summary.outcomes)}`);
    }
  }
  await adaptedStt.close();
  if (process.env.TELEPHONY_TURNS_GRID === 'no') return;
  console.log(`  on the tuning voices (target: premature <= ${PREMATURE_TARGET * 100} %, then the fastest end); unsure word below / mostly unsure at most:`);
  let best: { settings: (typeof GRID)[number]; summary: CorpusSummary } | undefined;
  const summaries = new Map<(typeof GRID)[number], CorpusSummary>();
  for (const settings of GRID) {
    const summary = await runCorpus(speech, { ...server, ...settings }, phoneRun(tuning));
    console.log(
      `    ${fixed(settings.unsureWordConfidence, 2)} / ${fixed(settings.mostlyUnsureProbability, 2)}: ${summaryLine(summary)}\n          read as ${readings(summary.outcomes)}`,
    );
    summaries.set(settings, summary);
    if (!best || better(summary, best.summary)) best = { settings, summary };
  }
  // The fastest of the others, whatever its cut-ins, to see them on voices nothing was tried on.
  const fastest = GRID.slice(1).reduce((a, b) => (summaries.get(b)!.endP50 < summaries.get(a)!.endP50 ? b : a));
  console.log(`  best on the tuning voices ${JSON.stringify(best!.settings)}; fastest of the others ${JSON.stringify(fastest)}`);
  for (const [name, settings] of [
    ['server settings', server],
    [`${fixed(fastest.unsureWordConfidence, 2)} / ${fixed(fastest.mostlyUnsureProbability, 2)}    `, { ...server, ...fastest }],
  ] as const) {
    const summary = await runCorpus(speech, settings, phoneRun(heldOut));
    console.log(`  held-out voices, ${name}: ${summaryLine(summary)}\n          read as ${readings(summary.outcomes)}`);
  }
}
