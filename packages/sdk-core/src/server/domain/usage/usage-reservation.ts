import type { Usage } from '../../../contract/usage.js';

/** How a reservation is settled; supplied by the UsageService that made it. */
export interface ReservationSettler {
  commit(reservationId: string | null, actual: number, metadata: Record<string, unknown>): Promise<Usage>;
  release(reservationId: string | null): Promise<void>;
}

/**
 * Usage promised to one in-flight request (typically a streamed completion). While it is open, its
 * `granted` amount counts against the human's limit, so concurrent requests cannot together overshoot
 * the limit by more than one request's excess over its reservation. Settle it exactly once: `commit`
 * with what was really used (recorded as usage, with its `usage.tracked` webhook), or `release`.
 * An unsettled reservation expires on its own (a crashed request does not hold the budget forever).
 *
 * @example
 * const reservation = await services.usage.reserve(project, human, 'token_cnt', maxTokens);
 * try {
 *   const produced = await stream(Math.min(maxTokens, reservation.granted));
 *   await reservation.commit(produced, { model });
 * } catch (error) {
 *   await reservation.release();
 *   throw error;
 * }
 */
export class UsageReservation {
  private settled = false;

  constructor(
    /** Stored reservation id; null when the human has no limit for the type (nothing to hold). */
    readonly id: string | null,
    /** The amount held: the amount asked for, or less when only that much of the limit remains. */
    readonly granted: number,
    private readonly settler: ReservationSettler,
  ) {}

  /** Whether `commit` or `release` was called. */
  get isSettled(): boolean {
    return this.settled;
  }

  /** Records `actual` usage (which may differ from `granted`) and frees the hold, in one transaction. */
  async commit(actual: number, metadata: Record<string, unknown> = {}): Promise<Usage> {
    this.markSettled();
    return this.settler.commit(this.id, actual, metadata);
  }

  /** Frees the hold without recording usage. Safe to call after `commit` (does nothing then). */
  async release(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.settler.release(this.id);
  }

  private markSettled(): void {
    if (this.settled) throw new Error('This usage reservation was already committed or released');
    this.settled = true;
  }
}
