import type { Logger } from 'pino';
import type { RemoteAudioTrack } from '../engines/media/index.js';
import type { Speech } from '../engines/speech/index.js';
import type { HumanListener } from './listener/human-listener.js';
import { loadListeningEngines, type ListeningEngines } from './listener/listening-engines.js';

/** Builds the listener of a track once the engines are loaded. */
export type ListenerFactory = (track: RemoteAudioTrack, engines: ListeningEngines & { vad: NonNullable<ListeningEngines['vad']> }) => HumanListener;

/**
 * The one listener of a conversation: the engines load once (`load`), a track that arrives before is kept and
 * listened to when they are ready, and a new track (the human republished) replaces the listener.
 *
 * @example
 * const slot = new ListenerSlot(speech, logger, (track, engines) => new HumanListener({ track, ...engines, ... }));
 * slot.listen(track);
 * await slot.load();
 */
export class ListenerSlot {
  private engines: ListeningEngines | undefined;
  private pending: RemoteAudioTrack | undefined;
  private listener: HumanListener | undefined;
  private closed = false;

  constructor(
    private readonly speech: Pick<Speech, 'stt' | 'vad'>,
    private readonly logger: Logger,
    private readonly create: ListenerFactory,
  ) {}

  /** Loads the VAD and the STT engine, then listens to the track that came meanwhile. */
  async load(): Promise<void> {
    this.engines = await loadListeningEngines(this.speech, this.logger);
    if (this.pending && !this.closed) this.listen(this.pending);
  }

  /** Listens to `track` (replacing the listener of an earlier one); without a VAD there is no speech input. */
  listen(track: RemoteAudioTrack): void {
    const engines = this.engines;
    if (this.closed) return;
    if (!engines?.vad) {
      // Still loading (or no VAD): kept for when the engines are ready.
      this.pending = track;
      return;
    }
    this.pending = undefined;
    this.listener?.close();
    this.listener = this.create(track, { ...engines, vad: engines.vad });
    void this.listener.run();
  }

  close(): void {
    this.closed = true;
    this.listener?.close();
  }
}
