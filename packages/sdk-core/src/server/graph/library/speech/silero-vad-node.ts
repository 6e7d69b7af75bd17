import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import { LinearResampler, VAD_SAMPLE_RATE } from '../../../engines/speech/index.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { AudioClip } from '../../runtime/stream-values.js';
import { ClipRecorder, padAudioTrack } from './pad-audio-track.js';

const CLIP_RATE = 48_000;

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/**
 * SileroVAD: the platform's voice activity detector on the `audio` pad. `speech_started_trigger` at the
 * first speech frame, `speech_ended_trigger` and the speech as a clip after `silence_duration_ms` of
 * silence; `continued_speech_trigger` when speech starts again within `silence_duration_ms` of an end.
 */
export const sileroVadNode: NodeImplementation = async (node, signal) => {
  const track = padAudioTrack(node, 'audio', signal);
  const vad = await node.environment.engines.speech.vad();
  if (signal.aborted) return;
  const silenceMs = numberOr(node.value('silence_duration_ms'), 500);
  const stream = vad.createStream({
    sampleRate: VAD_SAMPLE_RATE,
    hangoverMs: silenceMs,
    minSpeechMs: numberOr(node.value('speech_duration_ms'), 150),
    threshold: numberOr(node.value('vad_threshold'), 0.5),
  });
  const clip = new ClipRecorder();
  let lastEndAt = Number.NEGATIVE_INFINITY;
  let resampler: LinearResampler | undefined;
  for await (const frame of track.frames()) {
    if (signal.aborted) break;
    clip.push(frame);
    if (resampler?.inputRate !== frame.sampleRate) resampler = new LinearResampler(frame.sampleRate, VAD_SAMPLE_RATE);
    const events = await stream.push(resampler.push(frame.samples));
    for (const event of events) {
      if (event.type === 'speech_start') {
        clip.start();
        const continued = performance.now() - lastEndAt <= silenceMs;
        node.source(continued ? 'continued_speech_trigger' : 'speech_started_trigger').push(TRIGGER);
      } else {
        lastEndAt = performance.now();
        node.source('speech_ended_trigger').push(TRIGGER);
        node.source('audio_clip').push(new AudioClip(clip.finish(), CLIP_RATE, null));
      }
    }
  }
};
