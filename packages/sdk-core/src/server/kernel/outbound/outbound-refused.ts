import type { AddressKind } from './address-ranges.js';

/**
 * Why an outbound request was refused before any byte was sent: `address` (the host is, or resolves to, an address
 * the policy does not allow), `unresolved` (the host name has no address), `url` (not an absolute http(s) URL) or
 * `credentials` (`user:pass@host` in the URL).
 */
export type OutboundRefusalReason = 'address' | 'unresolved' | 'url' | 'credentials';

const KIND_PHRASES: Record<Exclude<AddressKind, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  'link-local': 'a link-local (cloud metadata) address',
  unroutable: 'a reserved or unroutable address',
};

/**
 * An outbound request refused by the outbound guard. The message is a phrase about the URL that callers prefix
 * with what the URL is (`the tool's URL was refused: resolves to a loopback address (127.0.0.1), ...`).
 */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  readonly code = 'ERR_OUTBOUND_REFUSED';

  constructor(
    readonly reason: OutboundRefusalReason,
    message: string,
    /** For `address`: what the refused address reaches. */
    readonly kind?: Exclude<AddressKind, 'public'>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** `host` is, or resolves to, `address`, whose kind the policy does not allow. */
  static forAddress(host: string, address: string, kind: Exclude<AddressKind, 'public'>, allowable: boolean): OutboundRefusedError {
    const shown = host === address ? address : `${host} -> ${address}`;
    const verdict = allowable ? 'which this server does not allow' : 'which is never allowed';
    return new OutboundRefusedError('address', `resolves to ${KIND_PHRASES[kind]} (${shown}), ${verdict}`, kind);
  }

  static unresolved(host: string, cause: unknown): OutboundRefusedError {
    const code = (cause as { code?: unknown })?.code;
    return new OutboundRefusedError('unresolved', `host '${host}' does not resolve${typeof code === 'string' ? ` (${code})` : ''}`, undefined, { cause });
  }
}

/**
 * The configuration that would allow what `error` refused, as ` (set NAME=true to allow it)`, or '' when no
 * setting does (link-local and unroutable addresses, malformed URLs).
 *
 * @example
 * `url refused: ${error.message}${allowSettingOf(error, { loopback: 'PALAVER_WEBHOOK_ALLOW_PRIVATE', private: 'PALAVER_WEBHOOK_ALLOW_PRIVATE' })}`
 */
export function allowSettingOf(error: OutboundRefusedError, settings: { loopback: string; private: string }): string {
  if (error.kind === 'loopback') return ` (set ${settings.loopback}=true to allow it)`;
  if (error.kind === 'private') return ` (set ${settings.private}=true to allow it)`;
  return '';
}
