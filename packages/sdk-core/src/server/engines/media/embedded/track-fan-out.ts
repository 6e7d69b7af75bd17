/**
 * What every track published into a room shares, audio or video: its publisher, the subscribers' sinks, the first
 * subscriber's notice and the end. Sinks must not throw; a throwing sink is dropped by {@link TrackFanOut.deliver}.
 *
 * @example
 * class PublishedAudioTrack extends TrackFanOut<RtpSink> {}
 * const unsubscribe = track.subscribe((packet) => sender.sendRtp(packet));
 */
export abstract class TrackFanOut<Sink extends (...args: never[]) => void> {
  protected readonly sinks = new Set<Sink>();
  private endListeners: Array<() => void> = [];
  private firstSubscriber: (() => void) | undefined;
  private endedFlag = false;

  constructor(readonly publisher: { sid: string; identity: string }) {}

  get ended(): boolean {
    return this.endedFlag;
  }

  get subscriberCount(): number {
    return this.sinks.size;
  }

  /** Called once, when the first subscriber comes (the publisher is told `TrackSubscribed`, as LiveKit does). */
  onFirstSubscriber(listener: () => void): void {
    if (this.sinks.size > 0) listener();
    else this.firstSubscriber = listener;
  }

  subscribe(sink: Sink): () => void {
    this.sinks.add(sink);
    const first = this.firstSubscriber;
    this.firstSubscriber = undefined;
    first?.();
    return () => this.sinks.delete(sink);
  }

  onEnded(listener: () => void): void {
    if (this.endedFlag) listener();
    else this.endListeners.push(listener);
  }

  end(): void {
    if (this.endedFlag) return;
    this.endedFlag = true;
    this.sinks.clear();
    const listeners = this.endListeners;
    this.endListeners = [];
    for (const listener of listeners) listener();
  }

  /** Hands the arguments to every sink; a sink that throws is dropped. */
  protected deliver(...args: Parameters<Sink>): void {
    for (const sink of this.sinks) {
      try {
        sink(...args);
      } catch {
        this.sinks.delete(sink);
      }
    }
  }
}
