import { type AudioFrame, type AudioOutput, frameDurationMs } from '../../../engines/media/index.js';
import type { RuntimeSourcePad } from '../../runtime/pads.js';

/** How far ahead of real time audio is pushed downstream, ms. */
const LEAD_MS = 60;
/** `write` resolves once less than this is queued, ms (as the room's outputs do). */
const HIGH_WATER_MS = 200;
const TICK_MS = 10;

/**
 * An {@link AudioOutput} that pushes audio onto an `audio` pad at the pace it would play, a little ahead of
 * real time, so a `flush` (barge-in) drops what is not yet pushed and tells the pads downstream to drop
 * theirs (an `audio-flush` packet). The agent's speaker writes to it exactly as to a room's track.
 *
 * @example
 * const output = new PacedPadOutput(node.source('audio'), node.id);
 * await speaker.speak({ text, voice, signal, onProgress }); // AgentSpeaker over this output
 */
export class PacedPadOutput implements AudioOutput {
  readonly trackSid: string;
  private readonly frames: AudioFrame[] = [];
  private queued = 0;
  private startedAt: number | undefined;
  private pushedMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly pad: RuntimeSourcePad,
    private readonly origin: string,
  ) {
    this.trackSid = `${origin}:audio`;
  }

  get queuedMs(): number {
    return this.queued;
  }

  async write(frame: AudioFrame): Promise<void> {
    if (this.closed) return;
    this.frames.push(frame);
    this.queued += frameDurationMs(frame);
    this.schedule();
    if (this.queued < HIGH_WATER_MS) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  flush(): number {
    const dropped = this.queued;
    this.frames.length = 0;
    this.queued = 0;
    this.startedAt = undefined;
    this.pushedMs = 0;
    this.pad.push({ kind: 'runtime:audio-flush', origin: this.origin });
    this.release();
    return dropped;
  }

  drained(): Promise<void> {
    if (this.frames.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.frames.length = 0;
    this.queued = 0;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.release();
  }

  private schedule(): void {
    if (this.timer) return;
    this.startedAt = performance.now();
    this.pushedMs = 0;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
    this.tick();
  }

  private tick(): void {
    const startedAt = this.startedAt ?? performance.now();
    this.startedAt = startedAt;
    const due = performance.now() - startedAt + LEAD_MS;
    while (this.frames.length > 0 && this.pushedMs < due) {
      const frame = this.frames.shift()!;
      const duration = frameDurationMs(frame);
      this.queued = Math.max(0, this.queued - duration);
      this.pushedMs += duration;
      this.pad.push({ kind: 'runtime:audio', frame, origin: this.origin });
    }
    if (this.queued < HIGH_WATER_MS) this.release();
    if (this.frames.length === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.startedAt = undefined;
      for (const resolve of this.drainWaiters.splice(0)) resolve();
    }
  }

  private release(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
    if (this.frames.length === 0) for (const resolve of this.drainWaiters.splice(0)) resolve();
  }
}
