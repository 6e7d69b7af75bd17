import type { SpeechRequest } from '../../../contract/audio.js';
import type { Voice } from '../../../contract/voices.js';
import { ApiError, BadRequestError } from '../../../errors/api-error.js';
import { createStreamingEncoder, STREAMED_AUDIO_CONTENT_TYPES, type PcmChunk, type StreamedAudioFormat } from '../../engines/speech/index.js';
import type { Principal } from '../../kernel/principal.js';
import type { VoiceSynthesisService } from '../voices/voice-synthesis-service.js';

/** The fields of a speech request the platform cannot honour, as the first one given. */
function refusedField(request: SpeechRequest): string | undefined {
  if (request.response_format === 'aac' || request.response_format === 'flac') {
    return `response_format: ${request.response_format} is not made here; use mp3, opus, wav or pcm`;
  }
  if (request.instructions !== undefined) return 'instructions: the platform voices take no style instructions';
  if (request.speed !== 1) return 'speed: the platform voices speak at one speed; only 1 is honoured';
  if (request.stream_format === 'sse') return 'stream_format: sse is not served; use audio (the file is streamed as it is made)';
  return undefined;
}

async function voiceOf(synthesis: VoiceSynthesisService, principal: Principal, request: SpeechRequest): Promise<Voice> {
  const id = typeof request.voice === 'string' ? request.voice : request.voice.id;
  try {
    return await synthesis.resolveVoice(principal, id);
  } catch (error) {
    if (ApiError.isInstance(error) && error.status === 404) {
      throw new BadRequestError(`Invalid body: voice: no voice '${id}' is available to this caller (see GET /v1/voice/list)`, { cause: error });
    }
    throw error;
  }
}

/**
 * `POST /v1/audio/speech` (OpenAI's `audio.speech.create`): the text spoken with a platform voice, streamed in the
 * asked format as the engine makes it (WAV at the end, its header holding the sizes). Refusals (unknown voice, a
 * field the platform cannot honour, the human's `voice_synthesis_seconds` used up, nothing speakable, engine
 * unavailable) come before any byte, as statuses; the seconds spoken are recorded when the audio ends.
 *
 * @example
 * const response = await openAiSpeech(services.voiceSynthesis, principal, { model: 'tts-1', input: 'Hi', voice: 'flite-slt', response_format: 'mp3', speed: 1, stream_format: 'audio' }, signal);
 */
export async function openAiSpeech(synthesis: VoiceSynthesisService, principal: Principal, request: SpeechRequest, signal: AbortSignal): Promise<Response> {
  const refused = refusedField(request);
  if (refused) throw new BadRequestError(`Invalid body: ${refused}`);
  const voice = await voiceOf(synthesis, principal, request);
  await synthesis.assertWithinLimit(principal);
  const iterator = synthesis.synthesize(voice, { text: request.input }, signal)[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || first.value.pcm.length === 0) throw new BadRequestError('Invalid body: input: nothing speakable (no letters or digits)');
  const format = request.response_format as StreamedAudioFormat;
  const body = encodedStream(iterator, first.value, format, async (seconds) => {
    await synthesis.recordUsage(principal, seconds, { voice: voice.id, characters: request.input.length, model: request.model, source: 'audio.speech' });
  });
  return new Response(body, { status: 200, headers: { 'content-type': STREAMED_AUDIO_CONTENT_TYPES[format], 'x-audio-voice': voice.id } });
}

/** The encoded bytes of the engine's chunks as a web stream; `onEnd` gets the seconds spoken (also when cut short). */
function encodedStream(
  iterator: AsyncIterator<PcmChunk>,
  first: PcmChunk,
  format: StreamedAudioFormat,
  onEnd: (seconds: number) => Promise<void>,
): ReadableStream<Uint8Array> {
  const encoder = createStreamingEncoder(format, first.sampleRate);
  let seconds = 0;
  let pending: PcmChunk | undefined = first;
  let ended = false;
  const finish = async () => {
    if (ended) return;
    ended = true;
    await onEnd(seconds);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        for (;;) {
          const chunk = pending ?? (await nextChunk(iterator));
          pending = undefined;
          if (!chunk) {
            for (const bytes of encoder.end()) controller.enqueue(bytes);
            controller.close();
            await finish();
            return;
          }
          seconds += chunk.pcm.length / chunk.sampleRate;
          const parts = encoder.push(chunk.pcm);
          for (const bytes of parts) controller.enqueue(bytes);
          if (parts.length > 0) return;
        }
      } catch (error) {
        controller.error(error);
        await finish();
      }
    },
    async cancel() {
      await iterator.return?.();
      await finish();
    },
  });
}

async function nextChunk(iterator: AsyncIterator<PcmChunk>): Promise<PcmChunk | undefined> {
  const result = await iterator.next();
  return result.done ? undefined : result.value;
}
