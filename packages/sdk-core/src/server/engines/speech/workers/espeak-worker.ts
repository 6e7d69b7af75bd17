import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ESPEAK_SAMPLE_RATE, type EspeakChunk, type EspeakJob, type EspeakPhonemeTiming, type EspeakWordTiming } from './espeak-protocol.js';
import { serveJobs } from './worker-runtime.js';

interface EspeakEvent {
  type: string;
  text_position: number;
  word_length: number;
  audio_position: number;
  /** A phoneme event's phoneme (IPA; empty for a pause). */
  id?: string | number;
}

interface EspeakInstance {
  set_voice(name: string): number;
  set_rate(value: number): number;
  set_pitch(value: number): number;
  set_range(value: number): number;
  set_volume(value: number): number;
  list_voices(): Array<{ name: string; identifier: string; languages: Array<{ name: string }> }>;
  synthesize(text: string, callback: (samples: Int16Array, events: EspeakEvent[]) => boolean | number): void;
}

/** `<`, `>` and `&` would be read as SSML markup by eSpeak. */
function escapeMarkup(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

serveJobs(async () => {
  const require = createRequire(import.meta.url);
  const { default: initialise } = (await import(pathToFileURL(require.resolve('@echogarden/espeak-ng-emscripten')).href)) as {
    default: () => Promise<{ eSpeakNGWorker: new () => EspeakInstance }>;
  };
  const module = await initialise();
  const engine = new module.eSpeakNGWorker();
  let currentVoice = '';
  // Warm the synthesis path once so the first real request does not pay for it.
  engine.set_voice('en-us');
  engine.synthesize('ok', () => 0);
  currentVoice = 'en-us';
  return {
    voices: () => engine.list_voices(),
    synthesize(payload, context) {
      const job = payload as EspeakJob;
      // set_voice keeps the previous voice on an unknown name and only says so in its return code.
      if (job.voice !== currentVoice) {
        const status = engine.set_voice(job.voice);
        if (status !== 0) throw new Error(`unknown eSpeak-NG voice: ${job.voice}`);
        currentVoice = job.voice;
      }
      engine.set_rate(job.rate);
      engine.set_pitch(job.pitch);
      engine.set_range(job.range);
      engine.set_volume(job.volume);
      const text = escapeMarkup(job.text);
      let pending: { word: string; start: number } | undefined;
      // A phoneme ends where the next phoneme (or the end) starts.
      let pendingPhoneme: { phoneme: string; start: number } | undefined;
      let samplesSoFar = 0;
      engine.synthesize(text, (samples, events) => {
        if (context.isCancelled()) return 1; // non-zero stops eSpeak's synthesis loop
        const timings: EspeakWordTiming[] = [];
        const phonemes: EspeakPhonemeTiming[] = [];
        for (const event of events) {
          const at = event.audio_position / 1000;
          if ((event.type === 'phoneme' || event.type === 'end') && pendingPhoneme) {
            phonemes.push({ ...pendingPhoneme, alphabet: 'ipa', end: Math.max(at, pendingPhoneme.start) });
            pendingPhoneme = undefined;
          }
          if (event.type === 'phoneme') pendingPhoneme = { phoneme: typeof event.id === 'string' ? event.id : '', start: at };
          if ((event.type === 'word' || event.type === 'end') && pending) {
            timings.push({ word: pending.word, start: pending.start, end: at });
            pending = undefined;
          }
          if (event.type === 'word') {
            const begin = event.text_position - 1;
            pending = { word: text.slice(begin, begin + event.word_length), start: at };
          }
        }
        if (samples && samples.length > 0) {
          samplesSoFar += samples.length;
          const copy = samples.slice();
          context.emit({ pcm: copy, sampleRate: ESPEAK_SAMPLE_RATE, wordTimings: timings, phonemes } satisfies EspeakChunk, [copy.buffer]);
        } else if (timings.length > 0 || phonemes.length > 0) {
          context.emit({ pcm: new Int16Array(0), sampleRate: ESPEAK_SAMPLE_RATE, wordTimings: timings, phonemes } satisfies EspeakChunk);
        }
        return 0;
      });
      if (pending || pendingPhoneme) {
        const end = samplesSoFar / ESPEAK_SAMPLE_RATE;
        context.emit({
          pcm: new Int16Array(0),
          sampleRate: ESPEAK_SAMPLE_RATE,
          wordTimings: pending ? [{ ...pending, end }] : [],
          phonemes: pendingPhoneme ? [{ ...pendingPhoneme, alphabet: 'ipa', end: Math.max(end, pendingPhoneme.start) }] : [],
        } satisfies EspeakChunk);
      }
      return null;
    },
  };
});
