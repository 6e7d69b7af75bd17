/** RFC 4733 event codes 0-15 and the keys they stand for. */
const DIGITS = '0123456789*#ABCD';

export interface DtmfEvent {
  /** The RFC 4733 event code (LiveKit's `SipDTMF.code`). */
  code: number;
  /** The key: `0`-`9`, `*`, `#`, `A`-`D` (LiveKit's `SipDTMF.digit`). */
  digit: string;
}

export function dtmfCode(digit: string): number | undefined {
  const code = DIGITS.indexOf(digit.toUpperCase());
  return code < 0 ? undefined : code;
}

/**
 * Reads RFC 4733 telephone-event packets: a key press is many packets with one RTP timestamp (updates, then
 * the end bit three times); it is reported once, on its first packet.
 *
 * @example
 * const receiver = new DtmfReceiver();
 * const event = receiver.receive(packet.payload, packet.header.timestamp); // { code: 5, digit: '5' } once
 */
export class DtmfReceiver {
  private lastTimestamp: number | undefined;

  receive(payload: Uint8Array, timestamp: number): DtmfEvent | undefined {
    if (payload.length < 4) return undefined;
    const code = payload[0]!;
    if (code >= DIGITS.length) return undefined;
    if (timestamp === this.lastTimestamp) return undefined;
    this.lastTimestamp = timestamp;
    return { code, digit: DIGITS[code]! };
  }
}

/**
 * The payloads of one key press sent as RFC 4733 events: updates every 20 ms for `durationMs`, then the end
 * packet three times (all share the press's RTP timestamp; the first carries the marker bit).
 */
export function dtmfPayloads(code: number, clockRate: number, durationMs = 100): Uint8Array[] {
  const step = (clockRate * 20) / 1000;
  const updates = Math.max(1, Math.round(durationMs / 20));
  const payloads: Uint8Array[] = [];
  for (let index = 1; index <= updates; index += 1) payloads.push(eventPayload(code, false, step * index));
  const end = eventPayload(code, true, step * updates);
  payloads.push(end, end, end);
  return payloads;
}

function eventPayload(code: number, end: boolean, duration: number): Uint8Array {
  const payload = new Uint8Array(4);
  payload[0] = code;
  payload[1] = (end ? 0x80 : 0) | 10; // volume -10 dBm0
  payload[2] = (duration >> 8) & 0xff;
  payload[3] = duration & 0xff;
  return payload;
}
