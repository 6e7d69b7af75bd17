import { parseParams } from '../message/sip-address.js';
import type { SipMessage, SipRequest, SipResponse } from '../message/sip-message.js';

/** Session timers (RFC 4028): how long a call lives without a refresh. */
export interface SessionTimerSettings {
  /** The interval asked for, or taken when the other side names none (seconds; default 1800). */
  expiresSeconds: number;
  /** The smallest interval accepted (our Min-SE; default 90, RFC 4028's floor; smaller only for tests). */
  minSeconds: number;
}

export const DEFAULT_SESSION_TIMER: SessionTimerSettings = { expiresSeconds: 1800, minSeconds: 90 };

/** An agreed interval, and whether we send the refreshes (else we wait for theirs). */
export interface SessionInterval {
  seconds: number;
  weRefresh: boolean;
}

/** A header list (Supported, Require) names `option`. */
export function namesOption(message: SipMessage, header: 'supported' | 'require', option: string): boolean {
  return message.headers.getAll(header).some((value) => value.toLowerCase() === option);
}

function sessionExpires(message: SipMessage): { seconds: number; refresher: 'uac' | 'uas' | undefined } | undefined {
  const value = message.headers.get('session-expires');
  if (!value) return undefined;
  const [delta = '', ...rest] = value.split(';');
  const seconds = Number(delta.trim());
  if (!Number.isInteger(seconds) || seconds <= 0) return undefined;
  const refresher = parseParams(rest.join(';'))['refresher'];
  return { seconds, refresher: refresher === 'uac' || refresher === 'uas' ? refresher : undefined };
}

export type UasSessionTerms = { interval: SessionInterval; headers: Array<[string, string]> } | { tooSmall: Array<[string, string]> };

/**
 * A request that starts or refreshes a session (INVITE, re-INVITE, UPDATE), answered by us: 422 with our Min-SE when
 * its Session-Expires is below it; else the interval (theirs, or ours when they name none) and who refreshes: the
 * sender when it supports timers and did not ask otherwise, we when it does not (RFC 4028 9).
 */
export function sessionTermsAsUas(request: SipRequest, settings: SessionTimerSettings): UasSessionTerms {
  const asked = sessionExpires(request);
  if (asked && asked.seconds < settings.minSeconds) return { tooSmall: [['Min-SE', String(settings.minSeconds)]] };
  const theirMinimum = Number(request.headers.get('min-se')?.split(';')[0]) || 0;
  const seconds = asked?.seconds ?? Math.max(settings.expiresSeconds, settings.minSeconds, theirMinimum);
  const supported = namesOption(request, 'supported', 'timer') || namesOption(request, 'require', 'timer');
  const refresher = supported ? (asked?.refresher ?? 'uac') : 'uas';
  return {
    interval: { seconds, weRefresh: refresher === 'uas' },
    headers: [['Session-Expires', `${seconds};refresher=${refresher}`], ...(supported ? [['Require', 'timer'] as [string, string]] : [])],
  };
}

/** Our request's 2xx (outbound INVITE, a refresh we sent): the interval it set, undefined when it has no Session-Expires. */
export function sessionTermsAsUac(response: SipResponse): SessionInterval | undefined {
  const set = sessionExpires(response);
  return set && { seconds: set.seconds, weRefresh: (set.refresher ?? 'uac') === 'uac' };
}

/** What a request we send asks for (an outbound INVITE, a refresh). */
export function sessionRequestHeaders(seconds: number, settings: SessionTimerSettings, refresher?: 'uac'): Array<[string, string]> {
  return [
    ['Session-Expires', refresher ? `${seconds};refresher=${refresher}` : String(seconds)],
    ['Min-SE', String(settings.minSeconds)],
  ];
}

export interface SessionTimerHandlers {
  /** Sends a refresh (UPDATE or re-INVITE) asking for `seconds`; resolves with its final response. */
  refresh(seconds: number): Promise<SipResponse>;
  /** The session was not refreshed in time: the call ends (BYE). */
  expired(): void;
}

/**
 * One call's session timer: as the refresher it refreshes at half the interval and ends the call when a refresh
 * gets 408 / 481 or no answer before the interval ends; otherwise it ends the call when no refresh came by the
 * interval minus min(32 s, a third) (RFC 4028 10), so a caller that vanished does not keep its session open.
 */
export class SessionTimer {
  private refreshTimer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The interval in force (undefined: no session timer). */
  current: SessionInterval | undefined;

  constructor(private readonly handlers: SessionTimerHandlers) {}

  /** Starts (or restarts, after a refresh) the interval. */
  arm(interval: SessionInterval): void {
    this.clear();
    if (this.stopped) return;
    this.current = interval;
    const ms = interval.seconds * 1000;
    if (interval.weRefresh) this.refreshTimer = setTimeout(() => void this.refreshNow(interval), ms / 2);
    this.expiryTimer = setTimeout(() => this.handlers.expired(), interval.weRefresh ? ms : ms - Math.min(32_000, ms / 3));
    this.refreshTimer?.unref();
    this.expiryTimer.unref();
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private async refreshNow(interval: SessionInterval): Promise<void> {
    const response = await this.handlers.refresh(interval.seconds);
    if (this.stopped) return;
    if (response.status >= 200 && response.status < 300) return this.arm(sessionTermsAsUac(response) ?? interval);
    if (response.status === 408 || response.status === 481) this.handlers.expired();
    // Any other failure: the session still lasts until the interval ends (the expiry timer).
  }

  private clear(): void {
    clearTimeout(this.refreshTimer);
    clearTimeout(this.expiryTimer);
    this.refreshTimer = undefined;
    this.expiryTimer = undefined;
  }
}
