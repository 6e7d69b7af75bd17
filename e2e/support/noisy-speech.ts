import type { PalaverServer } from '@palaver/sdk-core/server';
import { concatSamples, wavFile } from '@palaver/sdk-core/testing';

/** The platform's speech of `text` (Flite `slt`, through `POST /v1/voice/generate`) as PCM16 mono. */
export async function platformSpeech(server: PalaverServer, text: string): Promise<{ pcm: Int16Array; sampleRate: number }> {
  const response = await server.fetch(
    new Request('http://palaver.test/v1/voice/generate', {
      method: 'POST',
      headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json', accept: 'audio/wav' },
      body: JSON.stringify({ text, voice_id: 'flite-slt' }),
    }),
  );
  if (!response.ok) throw new Error(`speech generation failed: ${response.status} ${await response.text()}`);
  const wav = new Uint8Array(await response.arrayBuffer());
  const view = new DataView(wav.buffer);
  return { pcm: new Int16Array(wav.slice(44).buffer), sampleRate: view.getUint32(24, true) };
}

/**
 * Pink noise (equal energy per octave, like a room's hum, fans and traffic), from a seeded generator so every run
 * hears the same noise: white noise through Paul Kellet's economy filter.
 */
export function pinkNoise(samples: number, seed = 1): Float64Array {
  let state = seed >>> 0 || 1;
  const white = () => {
    // xorshift32: uniform in [-1, 1)
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 31 - 1;
  };
  const noise = new Float64Array(samples);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let index = 0; index < samples; index++) {
    const input = white();
    b0 = 0.99765 * b0 + input * 0.099046;
    b1 = 0.963 * b1 + input * 0.2965164;
    b2 = 0.57 * b2 + input * 1.0526913;
    noise[index] = b0 + b1 + b2 + input * 0.1848;
  }
  return noise;
}

function rms(values: ArrayLike<number>, from = 0, to = values.length): number {
  let sum = 0;
  for (let index = from; index < to; index++) sum += values[index]! * values[index]!;
  return Math.sqrt(sum / Math.max(1, to - from));
}

/** RMS of the speech where it is voiced (20 ms windows above a tenth of the loudest), so pauses do not dilute it. */
function speechRms(pcm: Int16Array, sampleRate: number): number {
  const window = Math.round(sampleRate / 50);
  const levels: number[] = [];
  for (let start = 0; start + window <= pcm.length; start += window) levels.push(rms(pcm, start, start + window));
  const loudest = Math.max(...levels);
  const voiced = levels.filter((level) => level > loudest / 10);
  return Math.sqrt(voiced.reduce((sum, level) => sum + level * level, 0) / voiced.length);
}

/**
 * A fake microphone file: each sentence then `pauseSeconds` of silence, in turn, with pink noise under all of it at
 * `snrDb` below the voiced speech (none when `snrDb` is null), after `leadSeconds` of noise alone.
 *
 * @example
 * const wav = await noisyMicrophone(server, ['please tell me about the weather'], { snrDb: 5 });
 */
export async function noisyMicrophone(
  server: PalaverServer,
  sentences: string[],
  options: { snrDb: number | null; pauseSeconds?: number; leadSeconds?: number; seed?: number },
): Promise<{ wav: Uint8Array; sampleRate: number; seconds: number }> {
  const spoken = await Promise.all(sentences.map((sentence) => platformSpeech(server, sentence)));
  const sampleRate = spoken[0]!.sampleRate;
  const silence = (seconds: number) => new Int16Array(Math.round(sampleRate * seconds));
  const parts: Int16Array[] = [silence(options.leadSeconds ?? 1)];
  for (const { pcm } of spoken) parts.push(pcm, silence(options.pauseSeconds ?? 3));
  const speech = concatSamples(parts);
  if (options.snrDb === null) return { wav: wavFile(speech, sampleRate), sampleRate, seconds: speech.length / sampleRate };
  const noise = pinkNoise(speech.length, options.seed);
  const target = speechRms(concatSamples(spoken.map(({ pcm }) => pcm)), sampleRate) / 10 ** (options.snrDb / 20);
  const gain = target / rms(noise);
  const mixed = new Int16Array(speech.length);
  for (let index = 0; index < speech.length; index++) mixed[index] = Math.max(-32768, Math.min(32767, Math.round(speech[index]! + noise[index]! * gain)));
  return { wav: wavFile(mixed, sampleRate), sampleRate, seconds: speech.length / sampleRate };
}
