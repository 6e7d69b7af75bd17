import { afterEach, describe, expect, it, vi } from 'vitest';
import { SipHeaders, type SipRequest, type SipResponse } from '../message/sip-message.js';
import { SessionTimer, sessionTermsAsUac, sessionTermsAsUas } from './session-timer.js';

const settings = { expiresSeconds: 1800, minSeconds: 90 };

function invite(headers: Array<[string, string]>): SipRequest {
  return { kind: 'request', method: 'INVITE', uri: 'sip:x@127.0.0.1', headers: new SipHeaders(headers), body: Buffer.alloc(0) };
}

function response(status: number, headers: Array<[string, string]> = []): SipResponse {
  return { kind: 'response', status, reason: '', headers: new SipHeaders(headers), body: Buffer.alloc(0) };
}

describe('session timer terms (RFC 4028)', () => {
  it('refuses an interval below our Min-SE with ours', () => {
    expect(sessionTermsAsUas(invite([['Session-Expires', '60']]), settings)).toEqual({ tooSmall: [['Min-SE', '90']] });
  });

  it("takes the caller's interval and refresher, and makes a caller that supports timers refresh when it names nobody", () => {
    expect(
      sessionTermsAsUas(
        invite([
          ['Supported', 'timer'],
          ['x', '300;refresher=uas'],
        ]),
        settings,
      ),
    ).toEqual({
      interval: { seconds: 300, weRefresh: true },
      headers: [
        ['Session-Expires', '300;refresher=uas'],
        ['Require', 'timer'],
      ],
    });
    expect(
      sessionTermsAsUas(
        invite([
          ['Supported', 'replaces, timer'],
          ['Session-Expires', '600'],
        ]),
        settings,
      ),
    ).toMatchObject({
      interval: { seconds: 600, weRefresh: false },
    });
  });

  it('gives a caller without timers our interval (at least its Min-SE) and refreshes it ourselves', () => {
    expect(sessionTermsAsUas(invite([]), settings)).toEqual({
      interval: { seconds: 1800, weRefresh: true },
      headers: [['Session-Expires', '1800;refresher=uas']],
    });
    expect(sessionTermsAsUas(invite([['Min-SE', '3600']]), settings)).toMatchObject({ interval: { seconds: 3600 } });
  });

  it("reads a 2xx's interval as the sender of the request", () => {
    expect(sessionTermsAsUac(response(200, [['Session-Expires', '120;refresher=uac']]))).toEqual({ seconds: 120, weRefresh: true });
    expect(sessionTermsAsUac(response(200, [['Session-Expires', '120;refresher=uas']]))).toEqual({ seconds: 120, weRefresh: false });
    expect(sessionTermsAsUac(response(200))).toBeUndefined();
  });
});

describe('SessionTimer', () => {
  afterEach(() => vi.useRealTimers());

  it('as the refresher: refreshes at half the interval, and a 481 ends the session', async () => {
    vi.useFakeTimers();
    const refresh = vi.fn(async () => response(481));
    const expired = vi.fn();
    new SessionTimer({ refresh, expired }).arm({ seconds: 10, weRefresh: true });
    await vi.advanceTimersByTimeAsync(5000);
    expect(refresh).toHaveBeenCalledWith(10);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('waiting for their refresh: ends the session at the interval less a third unless re-armed', async () => {
    vi.useFakeTimers();
    const expired = vi.fn();
    const timer = new SessionTimer({ refresh: async () => response(200), expired });
    timer.arm({ seconds: 9, weRefresh: false });
    await vi.advanceTimersByTimeAsync(5000);
    timer.arm({ seconds: 9, weRefresh: false });
    await vi.advanceTimersByTimeAsync(5999);
    expect(expired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toHaveBeenCalledTimes(1);
    timer.stop();
  });
});
