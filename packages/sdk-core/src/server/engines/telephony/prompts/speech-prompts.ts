import { collectSynthesis, resampleLinear, type TtsRouter } from '../../speech/index.js';
import { ROOM_FRAME_SAMPLES } from '../rtp/call-codec.js';

/** Speaks a prompt: the text as 48 kHz mono PCM. */
export type PromptSpeaker = (text: string) => Promise<Int16Array>;

/** A {@link PromptSpeaker} that keeps what it spoke: `ready` tells whether a text's audio is there to play at once. */
export interface CachedPromptSpeaker {
  (text: string): Promise<Int16Array>;
  /** Whether `text` was synthesised (successfully) and is kept. */
  ready(text: string): boolean;
}

const PROMPT_RATE = ROOM_FRAME_SAMPLES * 50;

/**
 * Prompts spoken by the platform's offline TTS (Flite `slt`), each synthesised once and kept (a handful of fixed
 * sentences). A prompt that fails to synthesise is tried again next time.
 *
 * @example
 * const prompts = speechPrompts(speech.tts);
 * call.play(await prompts('Please enter the PIN followed by the pound key.'));
 */
export function speechPrompts(tts: Pick<TtsRouter, 'synthesize'>): CachedPromptSpeaker {
  const cache = new Map<string, Promise<Int16Array>>();
  const done = new Set<string>();
  const speak = (text: string): Promise<Int16Array> => {
    let spoken = cache.get(text);
    if (!spoken) {
      spoken = collectSynthesis(tts.synthesize({ voice: { service: 'flite', voice: 'slt' }, text })).then(({ pcm, sampleRate }) =>
        sampleRate === PROMPT_RATE ? pcm : resampleLinear(pcm, sampleRate, PROMPT_RATE),
      );
      cache.set(text, spoken);
      spoken.then(
        () => done.add(text),
        () => cache.delete(text),
      );
    }
    return spoken;
  };
  return Object.assign(speak, { ready: (text: string) => done.has(text) });
}
