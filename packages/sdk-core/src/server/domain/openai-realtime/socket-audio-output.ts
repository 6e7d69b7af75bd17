import type { AudioFrame, AudioOutput } from '../../engines/media/index.js';

/** How far the speech sent may run ahead of playback at the client, ms: enough to ride out network jitter. */
export const PLAYBACK_LEAD_MS = 400;

/**
 * The speaker's output for a Realtime API response: each chunk of speech leaves at once as a
 * `response.output_audio.delta`, paced to stay at most {@link PLAYBACK_LEAD_MS} ahead of the playback clock (started by
 * the first chunk), as the room's track paces the agent's voice. So the response is in progress while it is heard,
 * speech of the human cancels what is still to come, and a cancellation knows what was played: `flush` answers the
 * milliseconds sent but not yet heard, which the speaker leaves out of the words spoken.
 *
 * @example
 * const output = new SocketAudioOutput((pcm) => send({ type: 'response.output_audio.delta', delta: base64(pcm) }));
 * await new AgentSpeaker(tts, output, 24_000, logger).speak(request);
 */
export class SocketAudioOutput implements AudioOutput {
  readonly trackSid = 'realtime_output';
  /** Milliseconds of audio sent. */
  writtenMs = 0;
  private startedAt: number | undefined;
  private wake: (() => void) | undefined;
  private flushed = false;

  /** `dropQueued` is told of a flush (a WebRTC track drops the audio it has not played yet). */
  constructor(
    private readonly send: (pcm: Int16Array) => void,
    private readonly dropQueued?: () => void,
  ) {}

  /** Milliseconds played by the client's clock (what was sent, up to now). */
  get playedMs(): number {
    if (this.startedAt === undefined) return 0;
    return Math.min(this.writtenMs, performance.now() - this.startedAt);
  }

  /** Milliseconds sent and not yet played. */
  get queuedMs(): number {
    return this.writtenMs - this.playedMs;
  }

  async write(frame: AudioFrame): Promise<void> {
    if (frame.samples.length === 0 || this.flushed) return;
    this.startedAt ??= performance.now();
    this.writtenMs += (frame.samples.length / frame.channels / frame.sampleRate) * 1000;
    this.send(frame.samples);
    await this.until(PLAYBACK_LEAD_MS);
  }

  /** Stops pacing; answers the milliseconds sent and not yet played (the client drops them at speech). */
  flush(): number {
    const unplayed = this.writtenMs - this.playedMs;
    this.flushed = true;
    this.dropQueued?.();
    this.wake?.();
    return unplayed;
  }

  /** Resolves when the client has played everything sent (by the clock). */
  drained(): Promise<void> {
    return this.until(0);
  }

  close(): Promise<void> {
    this.flush();
    return Promise.resolve();
  }

  /** Waits until at most `leadMs` of what was sent is still to be played, or a flush. */
  private async until(leadMs: number): Promise<void> {
    while (!this.flushed && this.writtenMs - this.playedMs > leadMs) {
      const waitMs = this.writtenMs - this.playedMs - leadMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, waitMs));
        this.wake = () => (clearTimeout(timer), resolve());
      });
      this.wake = undefined;
    }
  }
}
