import { collectSynthesis, resampleLinear, type TtsRouter } from '../../speech/index.js';
import { ROOM_FRAME_SAMPLES } from '../rtp/call-codec.js';

/** Speaks a prompt: the text as 48 kHz mono PCM. */
export type PromptSpeaker = (text: string) => Promise<Int16Array>;

const PROMPT_RATE = ROOM_FRAME_SAMPLES * 50;

/**
 * Prompts spoken by the platform's offline TTS (Flite `slt`), each synthesised once and kept (a handful of fixed
 * sentences). A prompt that fails to synthesise is tried again next time.
 *
 * @example
 * const prompts = speechPrompts(speech.tts);
 * call.play(await prompts('Please enter the PIN followed by the pound key.'));
 */
export function speechPrompts(tts: Pick<TtsRouter, 'synthesize'>): PromptSpeaker {
  const cache = new Map<string, Promise<Int16Array>>();
  return (text) => {
    let spoken = cache.get(text);
    if (!spoken) {
      spoken = collectSynthesis(tts.synthesize({ voice: { service: 'flite', voice: 'slt' }, text })).then(({ pcm, sampleRate }) =>
        sampleRate === PROMPT_RATE ? pcm : resampleLinear(pcm, sampleRate, PROMPT_RATE),
      );
      cache.set(text, spoken);
      spoken.catch(() => cache.delete(text));
    }
    return spoken;
  };
}
