/** Tries and time a caller has to key a rule's PIN. */
export const PIN_TRIES = 3;
export const PIN_TIMEOUT_MS = 30_000;

/**
 * A dispatch rule's PIN keyed on the phone (DTMF): digits collect until `#` or the PIN's length; a wrong entry
 * starts over, three wrong entries or 30 s without the right one fail.
 *
 * @example
 * const entry = new PinEntry('1234');
 * rtp listener: (event) => entry.key(event.digit);
 * if (await entry.result) join();
 */
export class PinEntry {
  readonly result: Promise<boolean>;
  /** A wrong entry was keyed; `triesLeft` is 0 after the last one (the entry then fails). */
  onWrong: ((triesLeft: number) => void) | undefined;
  private digits = '';
  private tries = 0;
  private settle: (ok: boolean) => void = () => undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pin: string,
    timeoutMs = PIN_TIMEOUT_MS,
  ) {
    this.result = new Promise((resolve) => (this.settle = resolve));
    this.timer = setTimeout(() => this.finish(false), timeoutMs);
  }

  key(digit: string): void {
    if (digit !== '#') this.digits += digit;
    if (digit !== '#' && this.digits.length < this.pin.length) return;
    if (this.digits === this.pin) return this.finish(true);
    this.digits = '';
    this.tries += 1;
    this.onWrong?.(PIN_TRIES - this.tries);
    if (this.tries >= PIN_TRIES) this.finish(false);
  }

  cancel(): void {
    this.finish(false);
  }

  private finish(ok: boolean): void {
    clearTimeout(this.timer);
    this.settle(ok);
  }
}
