import type { SpeechRequest } from '../../../contract/audio.js';
import type { Voice } from '../../../contract/voices.js';
import { ApiError, BadRequestError } from '../../../errors/api-error.js';
import { estimateTokens } from '../../engines/llm/index.js';
import { FFMPEG_AUDIO_CONTENT_TYPES, ffmpegAvailable } from '../../engines/media/index.js';
import { STREAMED_AUDIO_CONTENT_TYPES } from '../../engines/speech/index.js';
import type { Principal } from '../../kernel/principal.js';
import type { VoiceSynthesisService } from '../voices/voice-synthesis-service.js';
import { readableOf, sseEvent, SSE_HEADERS } from './event-stream.js';
import { madeByFfmpeg, speechAudio } from './speech-audio-stream.js';

/** The fields of a speech request the platform cannot honour, as the first one given. */
function refusedField(request: SpeechRequest): string | undefined {
  if (madeByFfmpeg(request.response_format) && !ffmpegAvailable()) {
    return `response_format: ${request.response_format} is made by ffmpeg, which is not installed on this server; use mp3, opus, wav or pcm`;
  }
  if (request.instructions !== undefined) return 'instructions: the platform voices take no style instructions';
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
 * `POST /v1/audio/speech` (OpenAI's `audio.speech.create`): the text spoken with a platform voice at the asked
 * `speed`, streamed in the asked format as the engine makes it (wav, aac and flac at the end), as the file itself or,
 * with `stream_format: sse`, as `speech.audio.delta` events ending with `speech.audio.done`. Refusals (unknown
 * voice, a field the platform cannot honour, the human's `voice_synthesis_seconds` used up, nothing speakable, engine
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
  const iterator = synthesis.synthesize(voice, { text: request.input, speed: request.speed }, signal)[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || first.value.pcm.length === 0) throw new BadRequestError('Invalid body: input: nothing speakable (no letters or digits)');
  const format = request.response_format;
  const audio = speechAudio(iterator, first.value, format, signal, async (seconds) => {
    await synthesis.recordUsage(principal, seconds, { voice: voice.id, characters: request.input.length, model: request.model, source: 'audio.speech' });
  });
  const headers = { 'x-audio-voice': voice.id };
  if (request.stream_format === 'sse') {
    return new Response(readableOf(speechEvents(audio, request.input)), { status: 200, headers: { ...headers, ...SSE_HEADERS } });
  }
  const contentType = madeByFfmpeg(format) ? FFMPEG_AUDIO_CONTENT_TYPES[format] : STREAMED_AUDIO_CONTENT_TYPES[format];
  return new Response(readableOf(audio), { status: 200, headers: { ...headers, 'content-type': contentType } });
}

/**
 * OpenAI's speech events: a `speech.audio.delta` (base64) per piece of audio as it is made, then `speech.audio.done`
 * with usage. The platform meters speech in seconds: the usage counts the input's text tokens, no audio tokens.
 */
async function* speechEvents(audio: AsyncGenerator<Uint8Array>, input: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const bytes of audio) yield sseEvent({ type: 'speech.audio.delta', audio: Buffer.from(bytes).toString('base64') });
  } finally {
    await audio.return(undefined);
  }
  const inputTokens = estimateTokens(input);
  yield sseEvent({ type: 'speech.audio.done', usage: { input_tokens: inputTokens, output_tokens: 0, total_tokens: inputTokens } });
}
