import { assertUpstreamAllowed, type UpstreamAddressPolicy } from '../engines/llm/upstream-address.js';
import { toolError, type ToolResult } from './tool-result.js';

/** Most bytes of a tool URL's answer that are read. */
export const MAX_WEB_TOOL_RESPONSE_BYTES = 64 * 1024;

export interface WebRequestToolOptions {
  /** Which non-public addresses the URL may resolve to (the LLM gateway's flags). */
  policy: UpstreamAddressPolicy;
  timeoutMs: number;
  /** The turn's signal: aborting rejects with its reason (not a tool result). */
  signal: AbortSignal;
  fetch?: typeof fetch;
}

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_WEB_TOOL_RESPONSE_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Math.min(size, MAX_WEB_TOOL_RESPONSE_BYTES));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
    if (offset >= bytes.length) break;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Calls a `web_request` tool: POSTs `{tool, arguments}` as JSON to its URL and answers with the response
 * body (parsed when it is JSON, text otherwise, at most 64 KiB read). The URL must resolve to addresses
 * the policy allows (SSRF); redirects are not followed. Timeouts, refusals, network failures and non-2xx
 * answers are error results for the model; only the turn's own abort rejects.
 *
 * @example
 * const result = await callWebRequestTool('https://tools.example.com/weather', 'get_weather', { city: 'Paris' }, { policy, timeoutMs: 10_000, signal });
 */
export async function callWebRequestTool(url: string, name: string, args: Record<string, unknown>, options: WebRequestToolOptions): Promise<ToolResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return toolError(`the tool's URL is not valid`);
  }
  try {
    await assertUpstreamAllowed(target, options.policy);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^model: the LLM's post_url\s*/, '') : String(error);
    return toolError(`the tool's URL was refused: ${reason}`);
  }
  options.signal.throwIfAborted();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  try {
    const response = await (options.fetch ?? fetch)(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/plain;q=0.9, */*;q=0.5' },
      body: JSON.stringify({ tool: name, arguments: args }),
      redirect: 'manual',
      signal,
    });
    const body = await readCapped(response);
    if (response.status < 200 || response.status >= 300) {
      const snippet = body.trim().slice(0, 500);
      return toolError(`the tool's URL answered ${response.status}${snippet ? `: ${snippet}` : ''}`);
    }
    const type = response.headers.get('content-type') ?? '';
    if (/\bjson\b/i.test(type)) {
      try {
        return { ok: true, value: JSON.parse(body) as unknown };
      } catch {
        return { ok: true, value: body };
      }
    }
    return { ok: true, value: body };
  } catch (error) {
    options.signal.throwIfAborted();
    if (timeout.aborted) return toolError(`the tool's URL did not answer within ${Math.round(options.timeoutMs / 100) / 10} s`);
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return toolError(`the tool's URL could not be reached (${error instanceof Error ? error.message : String(error)}${cause})`);
  }
}
