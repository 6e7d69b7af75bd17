import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { checkedLookup, type UpstreamAddressPolicy } from '../upstream-address.js';

interface Agents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * Kept-alive connections shared by the upstream LLMs of this process: a streamed completion reuses a warm socket
 * instead of paying DNS, TCP (and TLS) per request. One pair of agents per address policy, resolving through
 * {@link checkedLookup}, so a connection opened for an operator's built-in LLM is never reused for a project's LLM
 * the policy would refuse; `trusted` (no policy) is for the built-ins.
 */
const agentsByPolicy = new Map<string, Agents>();

function agentsFor(policy: UpstreamAddressPolicy | undefined): Agents {
  const key = policy ? `loopback:${policy.allowLoopback},private:${policy.allowPrivateNetworks}` : 'trusted';
  let agents = agentsByPolicy.get(key);
  if (!agents) {
    const options = { keepAlive: true, ...(policy ? { lookup: checkedLookup(policy) } : {}) };
    agents = { http: new HttpAgent(options), https: new HttpsAgent(options) };
    agentsByPolicy.set(key, agents);
  }
  return agents;
}

/** The most of an error answer's body read for its message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** An upstream's answer once its status line and headers arrived; `body` streams the rest. */
export interface UpstreamResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: IncomingMessage;
}

/**
 * POSTs a JSON body and resolves when the answer's headers arrive. Node's own HTTP client, without the web
 * streams and per-request objects of `fetch`: the gateway's hop to its upstream costs what a bare proxy's does.
 * With `policy`, a new connection is refused (a `BadRequestError`) when the host resolves to an address the policy
 * does not allow. Aborting `signal` destroys the request (and the body being read).
 *
 * @example
 * const answer = await postJson(new URL('https://api.openai.com/v1/chat/completions'), { authorization }, body, signal, policy);
 */
export function postJson(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  signal: AbortSignal,
  policy?: UpstreamAddressPolicy,
): Promise<UpstreamResponse> {
  const secure = url.protocol === 'https:';
  const agents = agentsFor(policy);
  return new Promise((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        signal,
        headers: {
          accept: 'text/event-stream, application/json',
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: response }),
    );
    request.once('error', reject);
    request.end(body);
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
