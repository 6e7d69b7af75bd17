import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookMessage } from '@palaver/sdk-core';

/** Thrown when a webhook request is not authentic or not well formed; answer 400. */
export class WebhookVerificationError extends Error {
  static readonly marker: symbol = Symbol.for('palaver.error.WebhookVerificationError');
  override name = 'WebhookVerificationError';

  /** Works across copies of the package (realms, bundles). */
  static isInstance(value: unknown): value is WebhookVerificationError {
    return (
      typeof value === 'object' && value !== null && (value as { constructor?: { marker?: symbol } }).constructor?.marker === WebhookVerificationError.marker
    );
  }
}

export interface VerifyWebhookOptions {
  /** Largest accepted distance between `webhook-timestamp` and now (default 300 s, as Stripe and Svix). */
  toleranceSeconds?: number;
  /**
   * Accept requests signed only with the spec's `X-Webhook-Signature` (no timestamp, so no replay
   * protection). Default true; set false to require the Standard Webhooks headers.
   */
  allowLegacySignature?: boolean;
  /** Clock in epoch milliseconds (tests). */
  now?: () => number;
}

/** Header access for `Headers`, node's `IncomingHttpHeaders` or a plain object. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

const SECRET_PREFIX = 'whsec_';

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/** Constant-time comparison of two byte strings of possibly different lengths. */
function safeEqual(expected: Buffer, received: Buffer): boolean {
  // timingSafeEqual throws on unequal lengths; compare fixed-length digests instead.
  const left = createHmac('sha256', 'compare').update(expected).digest();
  const right = createHmac('sha256', 'compare').update(received).digest();
  return timingSafeEqual(left, right) && expected.length === received.length;
}

function standardKey(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

function parseMessage(body: string): WebhookMessage {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new WebhookVerificationError('Webhook body is not JSON');
  }
  const message = value as { type?: unknown; payload?: unknown };
  if (typeof message !== 'object' || message === null || typeof message.type !== 'string' || typeof message.payload !== 'object' || message.payload === null) {
    throw new WebhookVerificationError('Webhook body is not a {type, payload} message');
  }
  return value as WebhookMessage;
}

/**
 * Checks that a webhook request comes from Palaver and returns its message. Verifies the Standard
 * Webhooks signature (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over
 * `id.timestamp.body`) with a timestamp tolerance, or, when those headers are absent, the spec's
 * `X-Webhook-Signature` (hex HMAC-SHA256 of the body). Comparisons are constant time. Pass the raw
 * body exactly as received: a re-serialised JSON object does not verify.
 *
 * @example
 * const message = verifyWebhook(rawBody, request.headers, process.env.PALAVER_WEBHOOK_SECRET!);
 * if (message.type === 'usage.tracked') await bill(message.payload);
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderSource, secret: string, options: VerifyWebhookOptions = {}): WebhookMessage {
  if (!secret) throw new TypeError('verifyWebhook: a secret is required');
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');

  if (id !== undefined || timestamp !== undefined || signatures !== undefined) {
    if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Incomplete webhook-id / webhook-timestamp / webhook-signature headers');
    if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
    const tolerance = options.toleranceSeconds ?? 300;
    const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
    if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
    const expected = createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`).digest();
    // The header may carry several space-separated signatures (key rotation); any v1 match is enough.
    const matched = signatures.split(' ').some((candidate) => {
      const [version, value] = candidate.split(',', 2);
      return version === 'v1' && value !== undefined && safeEqual(expected, Buffer.from(value, 'base64'));
    });
    if (!matched) throw new WebhookVerificationError('No matching webhook-signature');
    return parseMessage(body);
  }

  const legacy = header(headers, 'x-webhook-signature');
  if (legacy === undefined) throw new WebhookVerificationError('Missing webhook signature headers');
  if (options.allowLegacySignature === false) throw new WebhookVerificationError('Standard Webhooks headers are required');
  if (!/^[0-9a-fA-F]{64}$/.test(legacy.trim())) throw new WebhookVerificationError('X-Webhook-Signature is not a hex SHA-256 digest');
  const expected = createHmac('sha256', secret).update(body).digest();
  if (!safeEqual(expected, Buffer.from(legacy.trim(), 'hex'))) throw new WebhookVerificationError('X-Webhook-Signature does not match');
  return parseMessage(body);
}
