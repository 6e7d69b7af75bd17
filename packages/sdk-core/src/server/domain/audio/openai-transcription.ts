import type { TranscriptionRequest } from '../../../contract/audio.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { Speech, TranscriptWord } from '../../engines/speech/index.js';
import { SpeechUnavailableError } from '../voices/speech-errors.js';
import { speechSpans } from './silence-segments.js';
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
  if (request.stream === 'true') return 'stream: streamed transcripts are not served; the whole transcript is answered';
  if (request.chunking_strategy !== undefined) return 'chunking_strategy: the audio is always cut at its pauses';
  if (request['timestamp_granularities[]'] && request.response_format !== 'verbose_json')
    return 'timestamp_granularities[]: needs response_format verbose_json';
  if (provider === 'pocketsphinx' && request.language !== undefined && !/^en\b/i.test(request.language)) {
    return `language: the ${provider} engine transcribes English (en) only`;
  }
  return undefined;
}

async function decode(speech: Pick<Speech, 'codecs'>, file: File): Promise<{ pcm: Int16Array; sampleRate: number }> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const ascii = new TextDecoder('latin1').decode(bytes.subarray(0, 12));
  try {
    if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WAVE') return speech.codecs.wav.decode(bytes);
    if (speech.codecs.ogg.sniff(bytes)) return await speech.codecs.ogg.decode(bytes);
    if (speech.codecs.mp3.sniff(bytes)) return await speech.codecs.mp3.decode(bytes);
  } catch (error) {
    throw new BadRequestError(`Invalid body: file: could not be decoded (${(error as Error).message})`, { cause: error });
  }
  throw new BadRequestError('Invalid body: file: not wav, mp3 or ogg audio (flac, m4a, mp4 and webm are not decoded here)');
}

/** The text of each span, transcribed one utterance at a time in one engine session. */
async function transcribeSpans(
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
  const transcribed: TranscribedSpan[] = [];
  try {
    const frame = Math.max(1, Math.round(sampleRate * FRAME_SECONDS));
    for (const span of spans) {
      words = [];
      for (let offset = span.start; offset < span.end; offset += frame) session.push(pcm.subarray(offset, Math.min(span.end, offset + frame)));
      const text = (await session.finish()).trim();
      signal.throwIfAborted();
      transcribed.push({ start: span.start / sampleRate, end: span.end / sampleRate, text, confidences: words.map((word) => word.confidence) });
    }
  } finally {
    session.close();
  }
  return transcribed;
}

/**
 * `POST /v1/audio/transcriptions` (OpenAI's `audio.transcriptions.create`) over the platform's STT engine: the
 * recording (wav, mp3, ogg) is decoded, cut at its pauses, and each stretch of speech transcribed as one utterance,
 * which gives `verbose_json` its segments (word times are spread over their segment). Fields the engine cannot
 * honour are refused with 400 naming them; no STT engine available is 503.
 *
 * @example
 * const answer = await openAiTranscription(services.speech, { file, model: 'whisper-1', response_format: 'json' }, signal);
 */
export async function openAiTranscription(speech: Pick<Speech, 'stt' | 'codecs'>, request: TranscriptionRequest, signal: AbortSignal): Promise<Response> {
  const refused = refusedField(request, speech.stt.provider);
  if (refused) throw new BadRequestError(`Invalid body: ${refused}`);
  const status = await speech.stt.status();
  if (!status.available) throw new SpeechUnavailableError(`speech-to-text is unavailable on this server (${status.reason ?? 'no engine'})`);
  const { pcm, sampleRate } = await decode(speech, request.file);
  if (pcm.length === 0 || sampleRate <= 0) throw new BadRequestError('Invalid body: file: holds no audio samples');
  const duration = pcm.length / sampleRate;
  if (duration > MAX_TRANSCRIPTION_SECONDS) {
    throw new BadRequestError(`Invalid body: file: is ${duration.toFixed(1)} s long; at most ${MAX_TRANSCRIPTION_SECONDS} s per request`);
  }
  const spans = await transcribeSpans(speech, pcm, sampleRate, request, signal);
  const answer = transcriptAnswer(spans, duration, request);
  return new Response(answer.body, { status: 200, headers: { 'content-type': answer.contentType } });
}
