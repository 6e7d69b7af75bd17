import { joinArrays } from '../../engines/speech/index.js';

interface Block {
  pcm: Int16Array;
  /** Stream time of the block's first sample, seconds. */
  start: number;
  /** Stream time just after its last sample, seconds. */
  end: number;
  /** `performance.now()` when the block's last sample arrived. */
  arrivedAt: number;
}

/**
 * The last few seconds of a listener's audio with their stream times and arrival times. The VAD
 * reports speech start only after some speech (its minimum duration), so the STT must be given the
 * audio from a little before that point (pre-roll); and the VAD dates events in stream time, which
 * metrics need in wall time.
 *
 * @example
 * const recent = new RecentAudio(16_000, 2);
 * recent.append(pcm, performance.now());
 * session.push(recent.since(event.at - 0.2));
 */
export class RecentAudio {
  private readonly blocks: Block[] = [];
  private position = 0;

  constructor(
    private readonly sampleRate: number,
    private readonly keepSeconds: number,
  ) {}

  /** Stream time after the last appended sample, seconds. */
  get time(): number {
    return this.position;
  }

  append(pcm: Int16Array, arrivedAt: number): void {
    const start = this.position;
    this.position += pcm.length / this.sampleRate;
    this.blocks.push({ pcm, start, end: this.position, arrivedAt });
    while (this.blocks.length > 1 && this.blocks[0]!.end < this.position - this.keepSeconds) this.blocks.shift();
  }

  /** The audio kept from stream time `from` (seconds) on, as one array. */
  since(from: number): Int16Array {
    const parts: Int16Array[] = [];
    for (const block of this.blocks) {
      if (block.end <= from) continue;
      const skip = Math.max(0, Math.floor((from - block.start) * this.sampleRate));
      parts.push(skip > 0 ? block.pcm.subarray(skip) : block.pcm);
    }
    return joinArrays(parts, (length) => new Int16Array(length));
  }

  /**
   * When the sample at stream time `at` was live (`performance.now()` scale): its block's arrival, less
   * the time the rest of the block lasts (audio arrives in real time, a block once its last sample is
   * captured); undefined when that audio is no longer kept.
   */
  arrivalOf(at: number): number | undefined {
    for (const block of this.blocks) {
      if (at <= block.end) return at < block.start ? undefined : block.arrivedAt - (block.end - at) * 1000;
    }
    return undefined;
  }
}
