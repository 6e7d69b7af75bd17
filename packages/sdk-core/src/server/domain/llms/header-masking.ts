import type { LlmHeader } from '../../../contract/llms.js';

/** What replaces a masked header value (followed by the value's last four characters when it is long). */
export const MASK = '••••';

/** Values shorter than this are masked entirely: their last four characters would give too much away. */
const SHORT_VALUE = 12;

/**
 * Values made only of `{{secret:NAME}}` references, optionally after an authorization scheme: they carry
 * no secret themselves (the reference resolves server-side only), so they stay visible.
 */
const REFERENCES_ONLY = /^\s*(?:(?:Bearer|Basic|Token)\s+)?(?:\{\{\s*secret:[A-Za-z0-9_.-]{1,128}\s*\}\}\s*)+$/i;

/**
 * A header value as shown to a caller who does not own the LLM: literal values become `••••` plus their
 * last four characters (enough to tell keys apart), secret references stay. See
 * docs/decisions/0012-llm-header-masking.md.
 *
 * @example
 * maskHeaderValue('Bearer sk-live-0123456789abcd') // '••••abcd'
 * maskHeaderValue('Bearer {{secret:OPENAI}}')      // unchanged
 */
export function maskHeaderValue(value: string): string {
  if (REFERENCES_ONLY.test(value)) return value;
  return value.length < SHORT_VALUE ? MASK : `${MASK}${value.slice(-4)}`;
}

/** Every header with its value masked by {@link maskHeaderValue}. */
export function maskHeaders(headers: readonly LlmHeader[]): LlmHeader[] {
  return headers.map((header) => ({ key: header.key, value: maskHeaderValue(header.value) }));
}
