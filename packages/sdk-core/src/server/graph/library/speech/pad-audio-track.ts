import type { AudioFrame, RemoteAudioTrack } from '../../../engines/media/index.js';
import { AsyncQueue } from '../../../kernel/async-queue.js';
import type { RuntimeNode } from '../../runtime/graph-node.js';
import { isAudioPacket } from '../../runtime/stream-values.js';

/** 10 s of 20 ms frames: what arrives while the engines load (the first run loads the models) is kept. */
const BUFFERED_FRAMES = 500;

/**
 * The audio arriving on a node's `audio` sink as a {@link RemoteAudioTrack}, so the agent's listening
 * pipeline (VAD, STT) runs on a pad exactly as on a room track. Ends when the run stops.
 */
export function padAudioTrack(node: RuntimeNode, padId: string, signal: AbortSignal): RemoteAudioTrack {
  const frames = new AsyncQueue<AudioFrame>(BUFFERED_FRAMES);
  let origin = node.id;
  const unsubscribe = node.sink(padId).onValue((value) => {
    if (!isAudioPacket(value) || value.kind !== 'runtime:audio') return;
    origin = value.origin;
    frames.push(value.frame);
  });
  signal.addEventListener(
    'abort',
    () => {
      unsubscribe();
      frames.end();
    },
    { once: true },
  );
  return {
    trackSid: `${node.id}:${padId}`,
    name: `${node.id}:${padId}`,
    get participant() {
      return { identity: origin, sid: '', name: origin, kind: 'standard' as const, metadata: '', attributes: {} };
    },
    frames: () => frames,
  };
}

/** Collects the 48 kHz audio of one utterance (bounded) for an `audio_clip`. */
export class ClipRecorder {
  private chunks: Int16Array[] = [];
  private samples = 0;
  private recording = false;

  constructor(private readonly maxSeconds = 30) {}

  push(frame: AudioFrame): void {
    if (!this.recording || this.samples >= this.maxSeconds * frame.sampleRate) return;
    this.chunks.push(frame.samples);
    this.samples += frame.samples.length;
  }

  start(): void {
    this.chunks = [];
    this.samples = 0;
    this.recording = true;
  }

  finish(): Int16Array {
    this.recording = false;
    const joined = new Int16Array(this.samples);
    let offset = 0;
    for (const chunk of this.chunks) {
      joined.set(chunk, offset);
      offset += chunk.length;
    }
    this.chunks = [];
    this.samples = 0;
    return joined;
  }
}
