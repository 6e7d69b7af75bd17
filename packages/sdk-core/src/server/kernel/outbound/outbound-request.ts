import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { outboundGuard } from './outbound-guard.js';
import { urlRefusal, type OutboundPolicy } from './outbound-policy.js';

/** Kept-alive agents for the operator's own endpoints (built-in LLMs), which no policy judges. */
const trusted = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

export interface OutboundRequestInit {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers: Readonly<Record<string, string | number>>;
  body?: string;
  /** Aborting destroys the request, and the answer's body while it is being read. */
  signal: AbortSignal;
  /**
   * Which destinations the URL may reach (a policy, or an `OutboundGuard`); absent only for endpoints the
   * operator configured.
   */
  policy: OutboundPolicy | undefined;
}

/** An answer once its status line and headers arrived; `body` streams the rest. */
export interface OutboundResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: IncomingMessage;
}

/**
 * Sends one HTTP(S) request with Node's HTTP client over kept-alive connections and resolves when the answer's
 * headers arrive. Under a policy the URL must be an http(s) URL without credentials, and the connection goes
 * through the policy's {@link OutboundGuard}: a refused destination rejects with an `OutboundRefusedError`
 * before anything is sent. Redirects are never followed: a 3xx is the answer.
 *
 * @example
 * const answer = await outboundRequest(new URL(hook.url), { method: 'POST', headers, body, signal, policy });
 */
export function outboundRequest(url: URL, init: OutboundRequestInit): Promise<OutboundResponse> {
  if (init.policy) {
    const refused = urlRefusal(url);
    if (refused) return Promise.reject(refused);
  }
  const secure = url.protocol === 'https:';
  const agent = init.policy ? outboundGuard(init.policy).agentFor(url) : secure ? trusted.https : trusted.http;
  return new Promise((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: init.method,
        agent,
        signal: init.signal,
        headers: init.body === undefined ? init.headers : { ...init.headers, 'content-length': Buffer.byteLength(init.body) },
      },
      (response) => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: response }),
    );
    request.once('error', reject);
    request.end(init.body);
  });
}
