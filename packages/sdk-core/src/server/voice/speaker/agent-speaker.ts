import type { Logger } from 'pino';
import type { AudioOutput } from '../../engines/media/index.js';
import { LinearResampler, type PcmChunk, TextSegmenter, type TtsRouter, type VoiceSelection } from '../../engines/speech/index.js';
import { trimSilence } from './silence-trimmer.js';
import { framePhonemes, type SpokenFrame } from './spoken-phonemes.js';

/** Silence kept around each synthesized segment, ms: little before the first, a short pause between clauses. */
const FIRST_LEADING_SILENCE_MS = 10;
const LEADING_SILENCE_MS = 60;
const TRAILING_SILENCE_MS = 160;

/** What one utterance says and how. */
export interface SpeakRequest {
  /** The text as it arrives (LLM tokens, or one whole text). */
  text: AsyncIterable<string>;
  /** The voice; undefined sends text only. */
  voice: VoiceSelection | undefined;
  /** Aborting stops synthesis and drops queued audio at once (barge-in). */
  signal: AbortSignal;
  /** The text being spoken so far, each time a segment starts (or, without speech, arrives). */
  onProgress(text: string): void;
  /** The first audio (or, without speech, the first text) is out. */
  onStart?(): void;
}

/** What was said. */
export interface SpokenUtterance {
  /** The words the human heard: everything, or up to the point of interruption. */
  text: string;
  interrupted: boolean;
  startedAt: Date | undefined;
  endedAt: Date;
  /** Seconds of audio sent to the track. */
  audioSeconds: number;
  /** First segment ready -> its first audio. */
  ttsFirstAudioMs: number | undefined;
}

interface SpokenSegment {
  text: string;
  /** Offset of its first sample in the utterance's audio, ms. */
  startMs: number;
  durationMs: number;
}

/** An utterance being spoken: its segments as their first audio goes out, and how much audio was written. */
interface UtteranceProgress {
  segments: SpokenSegment[];
  writtenMs: number;
  startedAt: Date | undefined;
  ttsFirstAudioMs: number | undefined;
  /** Set by an interruption: the audio the human heard (written minus flushed), ms. */
  playedAtAbort: number | undefined;
}

/** Text spoken up to `playedMs`: whole segments, and the share of the words of the one cut off. */
export function textUpTo(segments: readonly SpokenSegment[], playedMs: number): string {
  const words: string[] = [];
  for (const segment of segments) {
    if (segment.startMs >= playedMs) break;
    const segmentWords = segment.text.split(/\s+/).filter(Boolean);
    if (segment.startMs + segment.durationMs <= playedMs || segment.durationMs === 0) {
      words.push(...segmentWords);
      continue;
    }
    const share = (playedMs - segment.startMs) / segment.durationMs;
    words.push(...segmentWords.slice(0, Math.round(segmentWords.length * share)));
    break;
  }
  return words.join(' ');
}

/**
 * Speaks an utterance on the agent's audio track: the text is cut into clauses and sentences as it
 * arrives (`TextSegmenter`), each is synthesized as soon as it is complete, resampled to the track's rate
 * and written to the paced output, whose backpressure keeps synthesis just ahead of playback. Aborting
 * flushes the output at once; the result then holds only what was heard.
 *
 * @example
 * const speaker = new AgentSpeaker(speech.tts, output, 48_000, logger);
 * const spoken = await speaker.speak({ text: answerPieces, voice, signal, onProgress: (text) => transcript.update(text) });
 */
export class AgentSpeaker {
  private readonly resamplers = new Map<number, LinearResampler>();

  constructor(
    private readonly tts: Pick<TtsRouter, 'synthesize'>,
    private readonly output: AudioOutput,
    private readonly outputRate: number,
    private readonly logger: Logger,
  ) {}

  async speak(request: SpeakRequest): Promise<SpokenUtterance> {
    return request.voice ? this.speakAudio(request, request.voice) : this.speakText(request);
  }

  private async speakText(request: SpeakRequest): Promise<SpokenUtterance> {
    let text = '';
    let startedAt: Date | undefined;
    for await (const piece of request.text) {
      if (request.signal.aborted) break;
      if (!piece) continue;
      if (!startedAt) {
        startedAt = new Date();
        request.onStart?.();
      }
      text += piece;
      request.onProgress(text.trim());
    }
    return { text: text.trim(), interrupted: request.signal.aborted, startedAt, endedAt: new Date(), audioSeconds: 0, ttsFirstAudioMs: undefined };
  }

  private async speakAudio(request: SpeakRequest, voice: VoiceSelection): Promise<SpokenUtterance> {
    const { signal } = request;
    const progress: UtteranceProgress = { segments: [], writtenMs: 0, startedAt: undefined, ttsFirstAudioMs: undefined, playedAtAbort: undefined };
    const onAbort = () => {
      const dropped = this.output.flush();
      progress.playedAtAbort = Math.max(0, progress.writtenMs - dropped);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const segmenter = new TextSegmenter();
      for await (const piece of request.text) {
        if (signal.aborted) break;
        for (const segment of segmenter.push(piece)) {
          await this.speakSegment(request, voice, progress, segment);
          if (signal.aborted) break;
        }
      }
      if (!signal.aborted) for (const segment of segmenter.flush()) await this.speakSegment(request, voice, progress, segment);
      if (!signal.aborted) await untilAborted(this.output.drained(), signal);
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    return this.spoken(progress);
  }

  /** Synthesises one segment (silence trimmed) and writes it out as it comes; the first audio starts the utterance. */
  private async speakSegment(request: SpeakRequest, voice: VoiceSelection, progress: UtteranceProgress, segment: string): Promise<void> {
    const { signal } = request;
    const entry: SpokenSegment = { text: segment, startMs: progress.writtenMs, durationMs: 0 };
    const requested = performance.now();
    let first = true;
    const audio = trimSilence(this.tts.synthesize({ voice, text: segment, signal }), {
      keepLeadingMs: progress.segments.length === 0 ? FIRST_LEADING_SILENCE_MS : LEADING_SILENCE_MS,
      keepTrailingMs: TRAILING_SILENCE_MS,
    });
    for await (const chunk of audio) {
      if (signal.aborted) return;
      if (first) {
        first = false;
        progress.ttsFirstAudioMs ??= performance.now() - requested;
        progress.segments.push(entry);
        request.onProgress(progress.segments.map((spoken) => spoken.text).join(' '));
        if (!progress.startedAt) {
          progress.startedAt = new Date();
          request.onStart?.();
        }
      }
      const pcm = this.resample(chunk);
      const ms = (pcm.length / this.outputRate) * 1000;
      // The phonemes starting in this audio travel with its frame (visemes downstream).
      const phonemes = chunk.phonemes?.length ? { phonemes: framePhonemes(chunk.phonemes, entry.durationMs / 1000) } : {};
      entry.durationMs += ms;
      progress.writtenMs += ms;
      await this.output.write({ samples: pcm, sampleRate: this.outputRate, channels: 1, ...phonemes } satisfies SpokenFrame);
    }
  }

  /** What the human heard: everything written, or up to where the interruption flushed the rest. */
  private spoken(progress: UtteranceProgress): SpokenUtterance {
    const { playedAtAbort, segments, writtenMs } = progress;
    const interrupted = playedAtAbort !== undefined;
    const text = interrupted ? textUpTo(segments, playedAtAbort) : segments.map((segment) => segment.text).join(' ');
    const audioSeconds = (interrupted ? playedAtAbort : writtenMs) / 1000;
    if (interrupted) this.logger.debug({ playedMs: playedAtAbort, writtenMs }, 'utterance interrupted');
    return { text, interrupted, startedAt: progress.startedAt, endedAt: new Date(), audioSeconds, ttsFirstAudioMs: progress.ttsFirstAudioMs };
  }

  private resample(chunk: PcmChunk): Int16Array {
    if (chunk.sampleRate === this.outputRate) return chunk.pcm;
    let resampler = this.resamplers.get(chunk.sampleRate);
    if (!resampler) {
      resampler = new LinearResampler(chunk.sampleRate, this.outputRate);
      this.resamplers.set(chunk.sampleRate, resampler);
    }
    return resampler.push(chunk.pcm);
  }
}

/** Resolves when `promise` does or `signal` aborts, whichever comes first. */
function untilAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => (signal.removeEventListener('abort', onAbort), resolve()),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}
