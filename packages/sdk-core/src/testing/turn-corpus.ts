import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { HumanListener, type HeardPause, type HeardUtterance, type TurnDetectionOptions } from '../server/voice/listener/human-listener.js';
import type { AudioFrame, RemoteAudioTrack } from '../server/engines/media/index.js';
import type { EndOfTurnDecision } from '../server/kernel/ports/turn-metrics.js';
import { resampleLinear, type Speech, type SttEngine } from '../server/engines/speech/index.js';

/** The STT an utterance is heard with (e.g. a hosted streaming engine on a fake vendor of its own), released after. */
export interface CorpusStt {
  stt: SttEngine;
  release(): Promise<void>;
}

export interface TurnCorpusOptions {
  items?: TurnCorpusItem[];
  concurrency?: number;
  /** The utterance's audio; by default the corpus file (`item.file`, mp3). */
  audio?: (item: TurnCorpusItem) => Promise<{ pcm: Int16Array; sampleRate: number }>;
  /** The STT per utterance; by default `speech.stt`. */
  sttFor?: (item: TurnCorpusItem) => Promise<CorpusStt>;
  /** Who speaks: `sip`, a phone caller (its recogniser the one adapted to narrowband speech, decision 0124); else a room human. */
  participantKind?: RemoteAudioTrack['participant']['kind'];
}

/** One utterance of the turn-taking corpus: words, a pause inside, more words. */
export interface TurnCorpusItem {
  id: string;
  file: string;
  voice: string;
  before: string;
  after: string;
  /** Where the speech before the pause ends, and where it resumes, ms from the file's start. */
  pauseStartMs: number;
  resumeMs: number;
  /** Where the speech ends for good, ms. */
  speechEndMs: number;
}

/** What the listener did with one corpus utterance. */
export interface TurnCorpusOutcome {
  item: TurnCorpusItem;
  /** A turn ended before the human's speech ended for good: the agent would have cut in. */
  premature: boolean;
  /** Utterances the listener ended (1 when the pause was heard as part of the turn). */
  turns: number;
  /** Pauses the listener heard, and how many the human went on after. */
  pauses: HeardPause[];
  /** The decoder's early words handed over to prepare an answer (its hypothesis when the voice went quiet, before the segment's final). */
  early: string[];
  resumptions: number;
  /** The end of the last turn, ms after the speech ended for good (the wait the human felt). */
  endAfterSpeechMs: number | undefined;
  /** Adaptive: how the words read at the pause that ended the last turn, and the wait that reading chose. */
  endOfTurn: EndOfTurnDecision | undefined;
  texts: string[];
}

const FRAME_MS = 20;
const FRAME_RATE = 48_000;
/** Silence after the speech, long enough for the longest wait. */
const TAIL_MS = 2000;

/** The corpus kept in the repository (`packages/sdk-core/tests/fixtures/turn-corpus`). */
export function turnCorpus(): { folder: string; items: TurnCorpusItem[] } {
  const folder = fileURLToPath(new URL('../../tests/fixtures/turn-corpus/', import.meta.url));
  const manifest = JSON.parse(readFileSync(`${folder}corpus.json`, 'utf8')) as { items: TurnCorpusItem[] };
  return { folder, items: manifest.items };
}

/** A microphone that plays `pcm` (48 kHz) in real time in 20 ms frames, then ends. */
function realTimeTrack(pcm: Int16Array, id: string, kind: RemoteAudioTrack['participant']['kind'] = 'standard'): RemoteAudioTrack {
  return {
    trackSid: `TR_${id}`,
    name: 'microphone',
    participant: { identity: `corpus-${id}`, name: id, metadata: '', attributes: {}, kind } as RemoteAudioTrack['participant'],
    async *frames(): AsyncIterable<AudioFrame> {
      const samples = (FRAME_RATE * FRAME_MS) / 1000;
      const started = performance.now();
      for (let offset = 0, index = 0; offset < pcm.length; offset += samples, index += 1) {
        const due = started + index * FRAME_MS;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        yield { samples: pcm.subarray(offset, offset + samples), sampleRate: FRAME_RATE, channels: 1 };
      }
    },
  };
}

/**
 * Plays corpus utterances in real time into the agent's listener (real VAD and STT) with the given turn
 * detection, a few at a time, and reports for each whether the turn ended during the pause.
 *
 * @example
 * const outcomes = await runTurnCorpus(platform.server.services.speech, DEFAULT_TURN_DETECTION);
 * const premature = outcomes.filter((outcome) => outcome.premature).length / outcomes.length;
 */
export async function runTurnCorpus(
  speech: Pick<Speech, 'vad' | 'stt' | 'codecs'>,
  turnDetection: TurnDetectionOptions,
  options: TurnCorpusOptions = {},
): Promise<TurnCorpusOutcome[]> {
  const corpus = turnCorpus();
  const items = options.items ?? corpus.items;
  const vad = await speech.vad();
  const logger = pino({ level: 'silent' });
  const outcomes: TurnCorpusOutcome[] = [];
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const decoded = options.audio ? await options.audio(item) : await speech.codecs.mp3.decode(readFileSync(`${corpus.folder}${item.file}`));
      const heardWith = options.sttFor ? await options.sttFor(item) : { stt: speech.stt, release: async () => undefined };
      const pcm = resampleLinear(decoded.pcm, decoded.sampleRate, FRAME_RATE);
      const padded = new Int16Array(pcm.length + (FRAME_RATE * TAIL_MS) / 1000);
      padded.set(pcm);
      const startedAt = performance.now();
      const ended: Array<{ at: number; utterance: HeardUtterance }> = [];
      const pauses: HeardPause[] = [];
      const early: string[] = [];
      let resumptions = 0;
      const listener = new HumanListener({
        track: realTimeTrack(padded, item.id, options.participantKind),
        vad,
        stt: heardWith.stt,
        turnDetection,
        logger,
        callbacks: {
          speechStarted: () => ({
            interim: () => undefined,
            pausing: (text) => early.push(text),
            paused: (pause) => pauses.push({ ...pause, speechEndedAt: pause.speechEndedAt - startedAt }),
            resumed: () => (resumptions += 1),
            finished: (utterance) => ended.push({ at: performance.now() - startedAt, utterance }),
          }),
          failed: () => undefined,
        },
      });
      await listener.run();
      // The last turn's text may still be on its way after the track ended.
      const deadline = performance.now() + 3000;
      while (ended.length === 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await heardWith.release();
      const first = ended[0];
      outcomes.push({
        item,
        premature: first !== undefined && first.at < item.speechEndMs,
        turns: ended.length,
        pauses,
        early,
        resumptions,
        endAfterSpeechMs: ended.at(-1) ? ended.at(-1)!.at - item.speechEndMs : undefined,
        endOfTurn: ended.at(-1)?.utterance.endOfTurn,
        texts: ended.map((entry) => entry.utterance.text),
      });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 3 }, worker));
  return outcomes.sort((a, b) => a.item.id.localeCompare(b.item.id));
}
