import type { Logger } from 'pino';
import { UsageLimitExceededError } from '../../errors/api-error.js';
import type { ConversationMeter } from '../kernel/ports/conversation-meter.js';
import type { Principal } from '../kernel/principal.js';

/**
 * The seconds a session's human spends in its room (`conversational_seconds`): counted while they are in it,
 * checked against their limit every `checkMs` while the session runs (`exceeded` is called once it is reached), and
 * recorded once when the session stops. Without a meter nothing is counted.
 *
 * @example
 * const time = new ConversationTime(meter, principal, session.id, { checkMs: 2000, exceeded: (message) => stop('usage_limit_exceeded', message), logger });
 * time.start(); time.joined(); ...; time.left();
 * await time.finish('ended');
 */
export class ConversationTime {
  private since: number | undefined;
  private totalMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private finished = false;

  constructor(
    private readonly meter: ConversationMeter | undefined,
    private readonly principal: Principal,
    private readonly sessionId: string,
    private readonly options: { checkMs: number; exceeded: (message: string) => void; logger: Logger },
  ) {}

  start(): void {
    if (!this.meter || this.timer) return;
    this.timer = setInterval(() => void this.check(), this.options.checkMs);
    this.timer.unref();
  }

  /** The human is in the room (again). */
  joined(): void {
    if (!this.finished) this.since ??= Date.now();
  }

  /** The human left the room. */
  left(): void {
    if (this.since === undefined) return;
    this.totalMs += Date.now() - this.since;
    this.since = undefined;
  }

  /** Seconds the human has been in the room so far. */
  seconds(): number {
    return (this.totalMs + (this.since !== undefined ? Date.now() - this.since : 0)) / 1000;
  }

  /** Stops counting and records the session's seconds (once). */
  async finish(reason: string): Promise<void> {
    clearInterval(this.timer);
    this.left();
    if (this.finished || !this.meter) return;
    this.finished = true;
    const seconds = Math.round(this.seconds() * 1000) / 1000;
    if (seconds <= 0) return;
    await this.meter
      .record(this.principal, seconds, { realtime_session: this.sessionId, stop_reason: reason })
      .catch((error: unknown) => this.options.logger.error({ err: error, seconds }, "the session's conversational seconds were not recorded"));
  }

  private async check(): Promise<void> {
    if (this.finished || this.since === undefined) return;
    try {
      await this.meter!.assertWithinLimit(this.principal, this.seconds());
    } catch (error) {
      if (UsageLimitExceededError.isInstance(error) && !this.finished) this.options.exceeded(error.message);
      else if (!UsageLimitExceededError.isInstance(error)) this.options.logger.warn({ err: error }, 'checking the conversational_seconds limit failed');
    }
  }
}
