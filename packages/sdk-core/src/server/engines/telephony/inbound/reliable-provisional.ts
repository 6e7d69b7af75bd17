import { randomInt } from 'node:crypto';
import type { SipResponse } from '../message/sip-message.js';
import type { ServerTransaction } from '../transaction/server-transactions.js';
import { SIP_T1, SIP_TRANSACTION_TIMEOUT } from '../transaction/timers.js';

/**
 * A reliable provisional response (RFC 3262): sent with `Require: 100rel` and an RSeq, repeated over UDP (T1
 * doubling) until the caller's PRACK names it, for at most 64*T1.
 *
 * @example
 * const ringing = new ReliableProvisional(transaction);
 * const acknowledged = ringing.send(createResponse(invite, 180, { toTag }));
 * // in-dialog PRACK: ringing.prack(request.headers.get('rack'))
 */
export class ReliableProvisional {
  private rseq = randomInt(1, 2 ** 31 - 1);
  private cseq = '';
  private waiting: { rseq: number; timer: NodeJS.Timeout | undefined; giveUp: NodeJS.Timeout; settle(acknowledged: boolean): void } | undefined;

  constructor(private readonly transaction: ServerTransaction) {}

  /** Sends `response` reliably; resolves true once PRACKed, false when it never was (or {@link stop}). */
  send(response: SipResponse): Promise<boolean> {
    this.stop();
    this.rseq += 1;
    this.cseq = response.headers.get('cseq') ?? '';
    response.headers.append('Require', '100rel');
    response.headers.append('RSeq', String(this.rseq));
    return new Promise<boolean>((resolve) => {
      const waiting = {
        rseq: this.rseq,
        timer: undefined as NodeJS.Timeout | undefined,
        giveUp: setTimeout(() => waiting.settle(false), SIP_TRANSACTION_TIMEOUT),
        settle: (acknowledged: boolean) => {
          clearTimeout(waiting.timer);
          clearTimeout(waiting.giveUp);
          if (this.waiting === waiting) this.waiting = undefined;
          resolve(acknowledged);
        },
      };
      this.waiting = waiting;
      const repeat = (interval: number) => {
        waiting.timer = setTimeout(() => {
          if (this.waiting !== waiting || this.transaction.finalSent) return;
          this.transaction.respond(response);
          repeat(interval * 2);
        }, interval);
      };
      this.transaction.respond(response);
      if (this.transaction.peer.protocol === 'udp') repeat(SIP_T1);
    });
  }

  /** A PRACK's RAck (`rseq cseq-number method`): true when it acknowledges the provisional we sent. */
  prack(rack: string | undefined): boolean {
    const match = /^\s*(\d+)\s+(\d+)\s+([A-Za-z]+)\s*$/.exec(rack ?? '');
    if (!match || Number(match[1]) !== this.rseq || `${match[2]} ${match[3]!.toUpperCase()}` !== this.cseq) return false;
    this.waiting?.settle(true);
    return true;
  }

  stop(): void {
    this.waiting?.settle(false);
  }
}
