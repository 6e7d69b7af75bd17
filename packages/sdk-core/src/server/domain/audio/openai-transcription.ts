import type { TranscriptionRequest } from '../../../contract/audio.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { Speech, TranscriptWord } from '../../engines/speech/index.js';
import { decodeWithFfmpeg, ffmpegAvailable, sniffFfmpegContainer } from '../../engines/media/index.js';
import { SpeechUnavailableError } from '../voices/speech-errors.js';
import { speechSpans } from './silence-segments.js';
import { readableOf, sseEvent, SSE_HEADERS } from './event-stream.js';
import { transcriptAnswer, type TranscribedSpan } from './transcript-formats.js';

/** Longest recording one request may transcribe. */
export const MAX_TRANSCRIPTION_SECONDS = 600;
/** Frames pushed to the engine, as a live session would. */
const FRAME_SECONDS = 0.1;

/** The first field of a transcription request the platform cannot honour, with why. */
function refusedField(request: TranscriptionRequest, provider: string): string | undefined {
  if (request.response_format === 'diarized_json') return 'response_format: diarized_json is not made here (no speaker diarization)';
  if (request.prompt !== undefined && request.prompt !== '') return 'prompt: the STT engine takes no prompt';
  if (request.temperature !== undefined && request.temperature !== 0) return 'temperature: the STT engine decodes greedily; only 0 is honoured';
  if (request['include[]']?.length) return 'include[]: the STT engine reports no logprobs';
  if (request.stream === 'true' && request.response_format !== 'json' && request.response_format !== 'text') {
    return `stream: a streamed transcript is text events; response_format ${request.response_format} is answered whole (use stream false)`;
  }
  if (request.chunking_strategy !== undefined) return 'chunking_strategy: the audio is always cut at its pauses';
  if (request['timestamp_granularities[]'] && request.response_format !== 'verbose_json')
    return 'timestamp_granularities[]: needs response_format verbose_json';
  if (provider === 'pocketsphinx' && request.language !== undefined && !/^en\b/i.test(request.language)) {
    return `language: the ${provider} engine transcribes English (en) only`;
  }
  return undefined;
}

async function decode(speech: Pick<Speech, 'codecs'>, file: File, signal: AbortSignal): Promise<{ pcm: Int16Array; sampleRate: number }> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const ascii = new TextDecoder('latin1').decode(bytes.subarray(0, 12));
  const container = sniffFfmpegContainer(bytes);
  if (container && !ffmpegAvailable()) {
    throw new BadRequestError(`Invalid body: file: ${container} audio is decoded by ffmpeg, which is not installed on this server; send wav, mp3 or ogg`);
  }
  try {
    if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WAVE') return speech.codecs.wav.decode(bytes);
    if (speech.codecs.ogg.sniff(bytes)) return await speech.codecs.ogg.decode(bytes);
    if (speech.codecs.mp3.sniff(bytes)) return await speech.codecs.mp3.decode(bytes);
    if (container) return await decodeWithFfmpeg(bytes, container, signal);
  } catch (error) {
    signal.throwIfAborted();
    throw new BadRequestError(`Invalid body: file: could not be decoded (${(error as Error).message})`, { cause: error });
  }
  throw new BadRequestError('Invalid body: file: not wav, mp3, ogg, flac, m4a, mp4 or webm audio');
}

/** Each span with its text, transcribed one utterance at a time in one engine session, as it is recognised. */
async function* transcribeSpans(
  speech: Pick<Speech, 'stt' | 'codecs'>,
  pcm: Int16Array,
  sampleRate: number,
  request: TranscriptionRequest,
  signal: AbortSignal,
) {
  const spans = speechSpans(pcm, sampleRate, speech.codecs.pcm.rmsDecibels);
  const session = speech.stt.createSession({ sampleRate, signal, ...(request.language ? { language: request.language } : {}) });
  let words: TranscriptWord[] = [];
  session.on('transcript', (event) => {
    if (event.type === 'final') words = event.words ?? [];
  });
  try {
    const frame = Math.max(1, Math.round(sampleRate * FRAME_SECONDS));
    for (const span of spans) {
      words = [];
      for (let offset = span.start; offset < span.end; offset += frame) session.push(pcm.subarray(offset, Math.min(span.end, offset + frame)));
      const text = (await session.finish()).trim();
      signal.throwIfAborted();
      yield { start: span.start / sampleRate, end: span.end / sampleRate, text, confidences: words.map((word) => word.confidence) } satisfies TranscribedSpan;
    }
  } finally {
    session.close();
  }
}

/**
 * `POST /v1/audio/transcriptions` (OpenAI's `audio.transcriptions.create`) over the platform's STT engine: the
 * recording (wav, mp3, ogg; flac, m4a, mp4, webm through ffmpeg) is decoded, cut at its pauses, and each stretch of
 * speech transcribed as one utterance, which gives `verbose_json` its segments (word times are spread over their
 * segment). With `stream: true` each segment's text is a `transcript.text.delta` event as it is recognised, then
 * `transcript.text.done`. Fields the engine cannot honour are refused with 400 naming them; no STT engine is 503.
 *
 * @example
 * const answer = await openAiTranscription(services.speech, { file, model: 'whisper-1', response_format: 'json' }, signal);
 */
export async function openAiTranscription(speech: Pick<Speech, 'stt' | 'codecs'>, request: TranscriptionRequest, signal: AbortSignal): Promise<Response> {
  const refused = refusedField(request, speech.stt.provider);
  if (refused) throw new BadRequestError(`Invalid body: ${refused}`);
  const status = await speech.stt.status();
  if (!status.available) throw new SpeechUnavailableError(`speech-to-text is unavailable on this server (${status.reason ?? 'no engine'})`);
  const { pcm, sampleRate } = await decode(speech, request.file, signal);
  if (pcm.length === 0 || sampleRate <= 0) throw new BadRequestError('Invalid body: file: holds no audio samples');
  const duration = pcm.length / sampleRate;
  if (duration > MAX_TRANSCRIPTION_SECONDS) {
    throw new BadRequestError(`Invalid body: file: is ${duration.toFixed(1)} s long; at most ${MAX_TRANSCRIPTION_SECONDS} s per request`);
  }
  const spans = transcribeSpans(speech, pcm, sampleRate, request, signal);
  if (request.stream === 'true') return new Response(readableOf(transcriptEvents(spans)), { status: 200, headers: SSE_HEADERS });
  const transcribed: TranscribedSpan[] = [];
  for await (const span of spans) transcribed.push(span);
  const answer = transcriptAnswer(transcribed, duration, request);
  return new Response(answer.body, { status: 200, headers: { 'content-type': answer.contentType } });
}

/** OpenAI's transcript events: a `transcript.text.delta` per recognised segment (spaced as the whole text), then `transcript.text.done`. */
async function* transcriptEvents(spans: AsyncGenerator<TranscribedSpan>): AsyncGenerator<Uint8Array> {
  const said: string[] = [];
  try {
    for await (const span of spans) {
      if (span.text === '') continue;
      yield sseEvent({ type: 'transcript.text.delta', delta: said.length === 0 ? span.text : ` ${span.text}`, segment_id: `seg_${said.length}` });
      said.push(span.text);
    }
  } finally {
    await spans.return(undefined);
  }
  yield sseEvent({ type: 'transcript.text.done', text: said.join(' ') });
}
