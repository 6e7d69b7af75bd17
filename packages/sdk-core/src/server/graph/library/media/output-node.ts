import type { AudioFrame } from '../../../engines/media/index.js';
import { LinearResampler } from '../../../engines/speech/index.js';
import type { NodeImplementation, RuntimeNode } from '../../runtime/graph-node.js';
import { isAudioPacket } from '../../runtime/stream-values.js';
import { outputVideo } from './output-video.js';

const OUTPUT_SAMPLE_RATE = 48_000;

/**
 * Output: audio arriving on `audio` is played to the room on the agent's track `<node id>:audio`, in order;
 * an `audio-flush` packet (a cancelled TTS) drops what is queued here and in the track at once. Video arriving on
 * `video` is shown on the track `<node id>:video` ({@link outputVideo}).
 */
export const outputNode: NodeImplementation = async (node, signal) => {
  await Promise.all([outputAudio(node, signal), outputVideo(node, signal)]);
};

async function outputAudio(node: RuntimeNode, signal: AbortSignal): Promise<void> {
  const room = node.environment.room;
  if (!node.isLinked('audio')) return;
  if (!room) {
    node.log('warning', 'no room: audio is not played');
    return;
  }
  const output = await room.publishAudio({ name: `${node.id}:audio`, sampleRate: OUTPUT_SAMPLE_RATE });
  const queue: AudioFrame[] = [];
  let wake: (() => void) | undefined;
  let resampler: LinearResampler | undefined;
  const unsubscribe = node.sink('audio').onValue((value) => {
    if (!isAudioPacket(value)) return;
    if (value.kind === 'runtime:audio-flush') {
      queue.length = 0;
      output.flush();
      return;
    }
    let frame = value.frame;
    if (frame.sampleRate !== OUTPUT_SAMPLE_RATE || frame.channels !== 1) {
      if (resampler?.inputRate !== frame.sampleRate) resampler = new LinearResampler(frame.sampleRate, OUTPUT_SAMPLE_RATE);
      const mono = frame.channels === 1 ? frame.samples : frame.samples.filter((_, index) => index % frame.channels === 0);
      frame = { samples: resampler.push(mono), sampleRate: OUTPUT_SAMPLE_RATE, channels: 1 };
    }
    queue.push(frame);
    wake?.();
  });
  const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  try {
    while (!signal.aborted) {
      const frame = queue.shift();
      if (!frame) {
        await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
        wake = undefined;
        continue;
      }
      await output.write(frame);
    }
  } finally {
    unsubscribe();
    await output.close().catch(() => undefined);
  }
}
