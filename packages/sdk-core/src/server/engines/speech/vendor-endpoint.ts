/** An OpenAI-compatible HTTP API (OpenAI, whisper.cpp server, faster-whisper server, LocalAI, ...). */
export interface VendorEndpoint {
  /** Base URL including the version prefix, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per-request timeout. */
  timeoutMs?: number;
}

/** A vendor answered with an error status; the message includes the status and the start of the body. */
export class VendorRequestError extends Error {
  override name = 'VendorRequestError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * POSTs to `{baseUrl}{path}` with bearer auth, the caller's signal and a timeout; rejects on non-2xx.
 *
 * @example
 * const response = await vendorPost(endpoint, '/audio/speech', { body: JSON.stringify(payload), json: true });
 */
export async function vendorPost(endpoint: VendorEndpoint, path: string, request: { body: BodyInit; json?: boolean; signal?: AbortSignal }): Promise<Response> {
  const signals = [AbortSignal.timeout(endpoint.timeoutMs ?? 60_000)];
  if (request.signal) signals.push(request.signal);
  const headers: Record<string, string> = {};
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  if (request.json) headers['content-type'] = 'application/json';
  const response = await fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}${path}`, {
    method: 'POST',
    headers,
    body: request.body,
    signal: AbortSignal.any(signals),
  });
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).slice(0, 300);
    throw new VendorRequestError(`${path} failed with HTTP ${response.status}: ${text}`, response.status);
  }
  return response;
}
