import type { IncomingMessage } from 'node:http';
import { allowSettingOf, OutboundRefusedError, outboundRequest, type OutboundPolicy, type OutboundResponse } from '../../kernel/outbound/index.js';
import { toolError, type ToolResult } from './tool-result.js';

/** Most bytes of a tool URL's answer that are read. */
export const MAX_WEB_TOOL_RESPONSE_BYTES = 64 * 1024;

export interface WebRequestToolOptions {
  /** Which non-public addresses the URL may reach (the LLM gateway's flags, or an outbound guard). */
  policy: OutboundPolicy;
  timeoutMs: number;
  /** The turn's signal: aborting rejects with its reason (not a tool result). */
  signal: AbortSignal;
}

/** The answer's body as text, at most {@link MAX_WEB_TOOL_RESPONSE_BYTES} of it; the rest is not read. */
async function readCapped(body: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size >= MAX_WEB_TOOL_RESPONSE_BYTES) break;
  }
  // Breaking out of the loop destroys the body; an answer read to its end keeps its connection alive.
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_WEB_TOOL_RESPONSE_BYTES));
}

/**
 * Calls a `web_request` tool: POSTs `{tool, arguments}` as JSON to its URL and answers with the response
 * body (parsed when it is JSON, text otherwise, at most 64 KiB read). The connection goes through the outbound
 * guard, which judges the address it connects to (SSRF, DNS rebinding); redirects are not followed. Timeouts,
 * refusals, network failures and non-2xx answers are error results for the model; only the turn's own abort
 * rejects.
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
  options.signal.throwIfAborted();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  try {
    const response: OutboundResponse = await outboundRequest(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/plain;q=0.9, */*;q=0.5' },
      body: JSON.stringify({ tool: name, arguments: args }),
      signal,
      policy: options.policy,
    });
    const body = await readCapped(response.body);
    if (response.status < 200 || response.status >= 300) {
      const snippet = body.trim().slice(0, 500);
      return toolError(`the tool's URL answered ${response.status}${snippet ? `: ${snippet}` : ''}`);
    }
    const type = response.headers['content-type'] ?? '';
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
    if (error instanceof OutboundRefusedError) {
      return toolError(
        `the tool's URL was refused: ${error.message}${allowSettingOf(error, { loopback: 'PALAVER_LLM_ALLOW_LOOPBACK', private: 'PALAVER_LLM_ALLOW_PRIVATE' })}`,
      );
    }
    if (timeout.aborted) return toolError(`the tool's URL did not answer within ${Math.round(options.timeoutMs / 100) / 10} s`);
    const code = (error as { code?: unknown })?.code;
    const detail = error instanceof Error ? error.message : String(error);
    return toolError(`the tool's URL could not be reached (${typeof code === 'string' && !detail.includes(code) ? `${code}: ` : ''}${detail})`);
  }
}
