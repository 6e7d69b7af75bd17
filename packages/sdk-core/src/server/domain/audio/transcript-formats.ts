import { deflateSync } from 'node:zlib';
import type { TranscriptionRequest, TranscriptionSegment, TranscriptionVerbose } from '../../../contract/audio.js';

/** A transcribed span: its times in seconds, its text and the recogniser's word confidences (when it gives them). */
export interface TranscribedSpan {
  start: number;
  end: number;
  text: string;
  confidences: number[];
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Whisper's measure of repetitiveness: the text's bytes over its deflated bytes. */
function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length === 0 ? 0 : round(bytes.length / deflateSync(bytes).length);
}

function segmentOf(span: TranscribedSpan, id: number): TranscriptionSegment {
  const mean = span.confidences.length > 0 ? span.confidences.reduce((sum, value) => sum + value, 0) / span.confidences.length : undefined;
  return {
    id,
    seek: 0,
    start: round(span.start),
    end: round(span.end),
    text: span.text,
    // The platform's engines have no token ids to report.
    tokens: [],
    temperature: 0,
    avg_logprob: mean !== undefined && mean > 0 ? round(Math.log(mean)) : 0,
    compression_ratio: compressionRatio(span.text),
    no_speech_prob: 0,
  };
}

/** Each word of a span with times spread over the span in proportion to its length (the engines give no word times). */
function wordsOf(span: TranscribedSpan): Array<{ word: string; start: number; end: number }> {
  const words = span.text.split(/\s+/).filter((word) => word !== '');
  const total = words.reduce((sum, word) => sum + word.length + 1, 0);
  let at = span.start;
  return words.map((word) => {
    const end = at + ((span.end - span.start) * (word.length + 1)) / total;
    const timed = { word, start: round(at), end: round(end) };
    at = end;
    return timed;
  });
}

function clock(seconds: number, separator: ',' | '.'): string {
  const millis = Math.round(seconds * 1000);
  const part = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${part(Math.floor(millis / 3_600_000))}:${part(Math.floor(millis / 60_000) % 60)}:${part(Math.floor(millis / 1000) % 60)}${separator}${part(millis % 1000, 3)}`;
}

/**
 * The answer of `POST /v1/audio/transcriptions` in the asked format: `json` and `verbose_json` as JSON, `text`, `srt`
 * and `vtt` as text.
 *
 * @example
 * transcriptAnswer(spans, 3.2, { response_format: 'text', ... }) // { contentType: 'text/plain; charset=utf-8', body: 'Hello world\n' }
 */
export function transcriptAnswer(
  spans: readonly TranscribedSpan[],
  duration: number,
  request: Pick<TranscriptionRequest, 'response_format' | 'language' | 'timestamp_granularities[]'>,
): { contentType: string; body: string } {
  const said = spans.filter((span) => span.text !== '');
  const text = said.map((span) => span.text).join(' ');
  switch (request.response_format) {
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', body: `${text}\n` };
    case 'srt':
      return {
        contentType: 'text/plain; charset=utf-8',
        body: said.map((span, index) => `${index + 1}\n${clock(span.start, ',')} --> ${clock(span.end, ',')}\n${span.text}\n`).join('\n'),
      };
    case 'vtt':
      return {
        contentType: 'text/vtt; charset=utf-8',
        body: `WEBVTT\n\n${said.map((span) => `${clock(span.start, '.')} --> ${clock(span.end, '.')}\n${span.text}\n`).join('\n')}`,
      };
    case 'verbose_json': {
      const granularities = request['timestamp_granularities[]'] ?? ['segment'];
      const verbose: TranscriptionVerbose = {
        task: 'transcribe',
        language: request.language ?? 'english',
        duration: round(duration),
        text,
        ...(granularities.includes('segment') ? { segments: said.map(segmentOf) } : {}),
        ...(granularities.includes('word') ? { words: said.flatMap(wordsOf) } : {}),
        usage: { type: 'duration', seconds: Math.ceil(duration) },
      };
      return { contentType: 'application/json', body: JSON.stringify(verbose) };
    }
    default:
      return { contentType: 'application/json', body: JSON.stringify({ text, usage: { type: 'duration', seconds: Math.ceil(duration) } }) };
  }
}
