import { Track, type Room } from 'livekit-client';
import { NOISE_SUPPRESSOR_NAME } from './noise-suppressor-name.js';

/** What applying the wish came to: running (or not) on the published microphone, or the failure. */
export type SuppressionReport = { active: boolean } | { error: Error };

/**
 * Noise suppression of one room's published microphone (decision 0116): the RNNoise `TrackProcessor` is set on the
 * microphone when wanted and removed when not, at once when the microphone is published and again whenever it is
 * published (later, or anew after a rejoin). The processor's module, worklet and WebAssembly are imported only the
 * first time it is turned on. Changes run one after another.
 *
 * @example
 * const suppression = new MicrophoneSuppression(room, true, (report) => console.log(report));
 * room.on(RoomEvent.LocalTrackPublished, () => void suppression.apply());
 * await suppression.set(false);
 */
export class MicrophoneSuppression {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly room: Room,
    private wanted: boolean,
    private readonly report: (report: SuppressionReport) => void,
  ) {}

  /** Turns suppression on or off; resolves with whether it now runs on the published microphone. */
  set(wanted: boolean): Promise<boolean> {
    this.wanted = wanted;
    return this.apply();
  }

  /** Brings the published microphone in line with the wish (false while no microphone is published). */
  apply(): Promise<boolean> {
    const run = this.queue.then(() => this.applyNow());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async applyNow(): Promise<boolean> {
    const track = this.room.localParticipant.getTrackPublication(Track.Source.Microphone)?.audioTrack;
    if (!track) return false;
    const running = () => track.getProcessor()?.name === NOISE_SUPPRESSOR_NAME;
    try {
      if (this.wanted && !running()) {
        const { createRnnoiseProcessor } = await import('./rnnoise-processor.js');
        await track.setProcessor(createRnnoiseProcessor());
      } else if (!this.wanted && running()) {
        await track.stopProcessor();
      }
    } catch (error) {
      const failure = new Error(
        `noise suppression could not be turned ${this.wanted ? 'on' : 'off'}: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
      this.report({ error: failure });
      throw failure;
    }
    this.report({ active: running() });
    return running();
  }
}
