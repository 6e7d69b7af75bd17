import { AsyncQueue } from '../../../kernel/async-queue.js';
import { abortError, type SupervisedWorker } from '../workers/supervised-worker.js';
import { textSegments } from './text-segmenter.js';
import type { PcmChunk, SynthesisRequest, WordTiming } from './tts-engine.js';

/**
 * Runs one worker job per text segment and yields the audio in order, shifting word and phoneme timings from
 * segment time to stream time. Pull-based on purpose: the next segment starts only when the consumer
 * asks for more audio, so a slow reader (a congested socket) stops synthesis instead of buffering it.
 *
 * @example
 * yield* synthesizeBySegment(worker, request, (segment) => ({ text: segment, voice: 'slt' }));
 */
export async function* synthesizeBySegment(worker: SupervisedWorker, request: SynthesisRequest, jobFor: (segment: string) => unknown): AsyncIterable<PcmChunk> {
  if (request.text === undefined && !request.textStream) throw new TypeError('synthesize needs text or textStream');
  const signal = request.signal;
  let offsetSeconds = 0;
  for await (const segment of textSegments(request)) {
    if (signal?.aborted) throw abortError(signal);
    const chunks = new AsyncQueue<PcmChunk>();
    const job = worker.run('synthesize', jobFor(segment), {
      ...(signal ? { signal } : {}),
      onChunk: (data) => chunks.push(data as PcmChunk),
    });
    job.result.then(
      () => chunks.end(),
      (error: Error) => chunks.fail(error),
    );
    let segmentSamples = 0;
    let sampleRate = 0;
    for await (const chunk of chunks) {
      sampleRate = chunk.sampleRate;
      segmentSamples += chunk.pcm.length;
      const wordTimings: WordTiming[] | undefined = chunk.wordTimings?.map((timing) => ({
        word: timing.word,
        start: timing.start + offsetSeconds,
        end: timing.end + offsetSeconds,
      }));
      const phonemes = chunk.phonemes?.map((timing) => ({ ...timing, start: timing.start + offsetSeconds, end: timing.end + offsetSeconds }));
      if (chunk.pcm.length === 0 && !wordTimings?.length && !phonemes?.length) continue;
      yield { pcm: chunk.pcm, sampleRate, ...(wordTimings?.length ? { wordTimings } : {}), ...(phonemes?.length ? { phonemes } : {}) };
    }
    if (sampleRate > 0) offsetSeconds += segmentSamples / sampleRate;
  }
}
