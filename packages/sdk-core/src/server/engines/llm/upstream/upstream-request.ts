import { outboundRequest, type OutboundPolicy, type OutboundResponse } from '../../../kernel/outbound/index.js';

/** The most of an error answer's body read for its message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** An upstream's answer once its status line and headers arrived; `body` streams the rest. */
export type UpstreamResponse = OutboundResponse;

/**
 * POSTs a JSON body and resolves when the answer's headers arrive. Node's own HTTP client over kept-alive
 * connections (the kernel's `outboundRequest`), without the web streams and per-request objects of `fetch`: the
 * gateway's hop to its upstream costs what a bare proxy's does. With `policy` (a project's LLM) the connection goes
 * through the outbound guard: a destination the policy refuses rejects with an `OutboundRefusedError`; without
 * it (the operator's built-in LLMs) no policy applies. Aborting `signal` destroys the request (and the body
 * being read).
 *
 * @example
 * const answer = await postJson(new URL('https://api.openai.com/v1/chat/completions'), { authorization }, body, signal, policy);
 */
export function postJson(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  signal: AbortSignal,
  policy?: OutboundPolicy,
): Promise<UpstreamResponse> {
  return outboundRequest(url, {
    method: 'POST',
    headers: { accept: 'text/event-stream, application/json', ...headers, 'content-type': 'application/json' },
    body,
    signal,
    policy,
  });
}

/**
 * The message of an error answer: OpenAI's `{"error": {"message"}}`, another JSON `message`, or the text,
 * prefixed with the status as the `openai` package words it (`429 Rate limit reached`).
 */
export async function errorMessageOf(response: UpstreamResponse): Promise<string> {
  let text = '';
  try {
    for await (const piece of response.body) {
      text += (piece as Buffer).toString('utf8');
      if (text.length > MAX_ERROR_BODY_BYTES) {
        response.body.destroy();
        break;
      }
    }
  } catch {
    // A body cut short still has a status to report.
  }
  const trimmed = text.trim().slice(0, MAX_ERROR_BODY_BYTES);
  if (trimmed === '') return `${response.status} status code (no body)`;
  try {
    const parsed = JSON.parse(trimmed) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string' && message !== '') return `${response.status} ${message}`;
  } catch {
    // Not JSON: the text itself.
  }
  return `${response.status} ${trimmed}`;
}

/** The answer's headers as web `Headers` (for `Retry-After`). */
export function headersOf(response: UpstreamResponse): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return headers;
}
