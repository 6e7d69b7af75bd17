import { z } from 'zod';
import { defineRoute } from './define-route.js';

/**
 * OpenAI's audio endpoints over the platform's speech engines: `POST /v1/audio/speech` speaks with a platform voice
 * (`GET /v1/voice/list`), `POST /v1/audio/transcriptions` transcribes with the platform's STT engine. Both take what
 * OpenAI's API takes; a field the platform cannot honour is refused with 400 naming it.
 */

/** Longest `input` a speech request may give, in characters (OpenAI: 4096). */
export const MAX_SPEECH_INPUT = 4096;

export const SpeechFormat = z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']).meta({ id: 'SpeechFormat' });
export type SpeechFormat = z.infer<typeof SpeechFormat>;

export const SpeechRequest = z
  .strictObject({
    model: z.string().min(1).max(200).describe("OpenAI's model names (`tts-1`, `gpt-4o-mini-tts`...) or any name: the voice chooses the engine."),
    input: z.string().min(1).max(MAX_SPEECH_INPUT),
    voice: z
      .union([z.string().min(1).max(200), z.object({ id: z.string().min(1).max(200) })])
      .describe('A platform voice id (`GET /v1/voice/list`), e.g. `flite-slt`, or `{id}`.'),
    instructions: z.string().max(4096).optional().describe('Refused: the platform voices take no style instructions.'),
    response_format: SpeechFormat.default('mp3').describe(
      '`mp3`, `opus` (Ogg), `wav`, `pcm` (24 kHz 16-bit little-endian mono), `aac` (ADTS) and `flac` (both need ffmpeg on the server).',
    ),
    speed: z.number().min(0.25).max(4).default(1).describe("Multiplies the voice's speaking rate."),
    stream_format: z
      .enum(['audio', 'sse'])
      .default('audio')
      .describe('`audio`: the file, streamed as it is made; `sse`: `speech.audio.delta` events (base64), then `speech.audio.done` with usage.'),
  })
  .meta({ id: 'SpeechRequest' });
export type SpeechRequest = z.output<typeof SpeechRequest>;

export const TranscriptionFormat = z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json']).meta({ id: 'TranscriptionFormat' });
export type TranscriptionFormat = z.infer<typeof TranscriptionFormat>;

/** A form field holding a number. */
const FormNumber = z.coerce.number();

export const TranscriptionRequest = z
  .strictObject({
    file: z.file().min(1).describe('The audio: wav (PCM16), mp3, ogg (Opus or Vorbis); flac, m4a, mp4, webm when the server has ffmpeg.'),
    model: z.string().min(1).max(200).describe("OpenAI's model names (`whisper-1`...) or any name: the platform's STT engine transcribes."),
    language: z.string().min(2).max(16).optional(),
    prompt: z.string().max(10_000).optional().describe('Refused: the STT engine takes no prompt.'),
    response_format: TranscriptionFormat.default('json').describe('`json`, `text`, `srt`, `vtt`, `verbose_json`; `diarized_json` is refused.'),
    temperature: FormNumber.pipe(z.number().min(0).max(1)).optional().describe('Only 0 is honoured (the engine decodes greedily).'),
    'timestamp_granularities[]': z
      .array(z.enum(['word', 'segment']))
      .optional()
      .describe('With `verbose_json`: `segment` (default) and/or `word`.'),
    'include[]': z.array(z.string()).optional().describe('Refused (no `logprobs` from the STT engine).'),
    stream: z
      .enum(['true', 'false'])
      .optional()
      .describe('`true`: `transcript.text.delta` events as segments are recognised, then `transcript.text.done` (json or text only).'),
    chunking_strategy: z.string().optional().describe('Refused: the audio is cut at its silences.'),
  })
  .meta({ id: 'TranscriptionRequest' });
export type TranscriptionRequest = z.output<typeof TranscriptionRequest>;

export const Transcription = z.object({ text: z.string() }).meta({ id: 'Transcription' });
export type Transcription = z.infer<typeof Transcription>;

export const TranscriptionWord = z.object({ word: z.string(), start: z.number(), end: z.number() }).meta({ id: 'TranscriptionWord' });
export const TranscriptionSegment = z
  .object({
    id: z.number().int(),
    seek: z.number().int(),
    start: z.number(),
    end: z.number(),
    text: z.string(),
    tokens: z.array(z.number().int()),
    temperature: z.number(),
    avg_logprob: z.number(),
    compression_ratio: z.number(),
    no_speech_prob: z.number(),
  })
  .meta({ id: 'TranscriptionSegment' });
export type TranscriptionSegment = z.infer<typeof TranscriptionSegment>;

export const TranscriptionVerbose = z
  .object({
    task: z.literal('transcribe'),
    language: z.string(),
    duration: z.number(),
    text: z.string(),
    segments: z.array(TranscriptionSegment).optional(),
    words: z.array(TranscriptionWord).optional(),
    usage: z.object({ type: z.literal('duration'), seconds: z.number() }).optional(),
  })
  .meta({ id: 'TranscriptionVerbose' });
export type TranscriptionVerbose = z.infer<typeof TranscriptionVerbose>;

export const audioRoutes = {
  speech: defineRoute({
    operationId: 'audio.speech',
    method: 'POST',
    path: '/v1/audio/speech',
    auth: 'K/B',
    tag: 'Audio (OpenAI-compatible)',
    summary: "Speak text with a platform voice (OpenAI's audio.speech; the audio is streamed as it is made)",
    request: { body: SpeechRequest },
    success: { kind: 'binary', contentTypes: ['audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/pcm', 'audio/aac', 'audio/flac', 'text/event-stream'] },
    errors: [404],
  }),
  transcriptions: defineRoute({
    operationId: 'audio.transcriptions',
    method: 'POST',
    path: '/v1/audio/transcriptions',
    auth: 'K/B',
    tag: 'Audio (OpenAI-compatible)',
    summary:
      "Transcribe audio with the platform's STT engine (OpenAI's audio.transcriptions): `json` `{text}`, `text`, `srt`, `vtt`, " +
      '`verbose_json` `{task, language, duration, text, segments, words}` (segments cut at silences, word times spread over their segment)',
    request: { body: TranscriptionRequest, bodyEncoding: 'multipart' },
    success: { kind: 'binary', contentTypes: ['application/json', 'text/plain', 'text/vtt', 'text/event-stream'] },
    errors: [413],
  }),
};
