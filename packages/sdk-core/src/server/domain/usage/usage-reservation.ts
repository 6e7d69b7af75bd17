import type { Usage } from '../../../contract/usage.js';

/** How a reservation is settled; supplied by the UsageService that made it. */
export interface ReservationSettler {
  commit(reservationId: string | null, actual: number, metadata: Record<string, unknown>): Promise<Usage>;
  /** Notes on the reservation what its request used so far (recorded only if the instance holding it dies). */
  progress(reservationId: string | null, usedSoFar: number, metadata: Record<string, unknown>): Promise<unknown>;
  release(reservationId: string | null): Promise<void>;
}

/**
 * Usage promised to one in-flight request (typically a streamed completion). While it is open, its
 * `granted` amount counts against the human's limit, so concurrent requests cannot together overshoot
 * the limit by more than one request's excess over its reservation. Settle it exactly once: `commit`
 * with what was really used (recorded as usage, with its `usage.tracked` webhook), or `release`.
 * A long request notes what it used so far with `progress` (a streamed answer metered as it goes): if the instance
 * holding the reservation dies, the instance that finds its lease expired records that for the human and deletes the
 * reservation. Otherwise it expires on its own (a crashed request does not hold the budget forever).
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

  /**
   * Notes what the request used so far (`metadata` for its record), written by the usage group commit: nothing is
   * recorded now, the hold stays; if the instance dies, whoever reaps its lease records it. Without a stored
   * reservation (no limit) a row holding nothing is made for it. Does nothing once settled.
   */
  async progress(usedSoFar: number, metadata: Record<string, unknown> = {}): Promise<void> {
    if (this.settled || !(usedSoFar > 0)) return;
    await this.settler.progress(this.id, usedSoFar, metadata);
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
