import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/**
 * A new endpoint secret in the Standard Webhooks form, `whsec_` + base64 of 24 random bytes, so receivers
 * can use any Standard Webhooks library as well as the spec's `X-Webhook-Signature`.
 */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/** The Standard Webhooks key: the base64-decoded part of a `whsec_` secret, or the secret's UTF-8 bytes. */
export function standardWebhooksKey(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

export interface SignatureInput {
  /** `webhook-id`: stable across retries of one event. */
  id: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** The exact bytes sent. */
  body: string;
}

/**
 * Headers that sign one delivery: the spec's `X-Webhook-Signature` (hex HMAC-SHA256 of the raw body, keyed
 * with the secret string as configured) and the Standard Webhooks trio, whose signature covers
 * `id.timestamp.body` so receivers can reject replays.
 */
export function signatureHeaders(secret: string, input: SignatureInput): Record<string, string> {
  const standard = createHmac('sha256', standardWebhooksKey(secret)).update(`${input.id}.${input.timestamp}.${input.body}`).digest('base64');
  return {
    'x-webhook-signature': createHmac('sha256', secret).update(input.body).digest('hex'),
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': `v1,${standard}`,
  };
}
