import { type Speech, UnsupportedOggCodecError } from '../speech/index.js';
import { AudioInputError, type AudioInput, type Transcriber } from './transcriber.js';

/** Longest audio one `input_audio` part may hold (decoded). */
export const DEFAULT_MAX_INPUT_AUDIO_SECONDS = 60;

export interface SpeechTranscriberOptions {
  /** Longest decoded audio per part; longer parts are refused with 400 (default 60 s). */
  maxSeconds?: number;
}

/** Feed the engine in 100 ms frames, as a live session would: engines may bound a single push. */
const FRAME_SECONDS = 0.1;

/**
 * The gateway's {@link Transcriber} over the platform's STT engine (`services.speech.stt`) and codecs: WAV
 * (PCM16), MP3 and Ogg (Opus, as browsers' MediaRecorder and OpenAI's audio output make it, or Vorbis) are
 * decoded, resampled by the engine session and transcribed as one utterance. Undecodable data, and an Ogg
 * stream of another codec (FLAC, Speex...), are refused as `data` errors (400).
 *
 * @example
 * const transcriber = createSpeechTranscriber(services.speech, { maxSeconds: 60 });
 * const text = await transcriber.transcribe({ data: wavBytes, format: 'wav' }, { signal });
 */
export function createSpeechTranscriber(speech: Pick<Speech, 'stt' | 'codecs'>, options: SpeechTranscriberOptions = {}): Transcriber {
  const maxSeconds = options.maxSeconds ?? DEFAULT_MAX_INPUT_AUDIO_SECONDS;

  async function decode(audio: AudioInput): Promise<{ pcm: Int16Array; sampleRate: number }> {
    try {
      if (audio.format === 'wav') return speech.codecs.wav.decode(audio.data);
      if (audio.format === 'ogg') {
        if (!speech.codecs.ogg.sniff(audio.data)) throw new Error('no Ogg capture pattern (OggS)');
        return await speech.codecs.ogg.decode(audio.data);
      }
      if (!speech.codecs.mp3.sniff(audio.data)) throw new Error('no ID3 tag or MPEG frame sync');
      return await speech.codecs.mp3.decode(audio.data);
    } catch (error) {
      if (error instanceof UnsupportedOggCodecError) {
        throw new AudioInputError('data', `cannot be transcribed: ${error.message}; send Ogg Opus, Ogg Vorbis, wav (PCM16) or mp3`, { cause: error });
      }
      const detail = error instanceof Error ? error.message : String(error);
      throw new AudioInputError('data', `could not be decoded as ${audio.format}: ${detail}`, { cause: error });
    }
  }

  return {
    async transcribe(audio, { signal }) {
      const status = await speech.stt.status();
      if (!status.available) {
        throw new AudioInputError(
          'stt',
          `input_audio needs a speech-to-text provider, and none is available on this server (${status.reason ?? 'unknown reason'})`,
        );
      }
      const { pcm, sampleRate } = await decode(audio);
      if (pcm.length === 0 || sampleRate <= 0) throw new AudioInputError('data', 'holds no audio samples');
      const seconds = pcm.length / sampleRate;
      if (seconds > maxSeconds) {
        throw new AudioInputError('data', `is ${seconds.toFixed(1)} s long; at most ${maxSeconds} s of audio per part`);
      }
      signal.throwIfAborted();
      const session = speech.stt.createSession({ sampleRate, signal });
      try {
        const frame = Math.max(1, Math.round(sampleRate * FRAME_SECONDS));
        for (let offset = 0; offset < pcm.length; offset += frame) session.push(pcm.subarray(offset, offset + frame));
        return (await session.finish()).trim();
      } finally {
        session.close();
      }
    },
  };
}
