import { createClient } from '@palaver/sdk-core';

export interface CreateUsageTokenOptions {
  /** Platform URL, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The project's API key (server side only). */
  apiKey: string;
  /** Your user's id; the token acts for this human only. */
  human: string;
  /** Lifetime in seconds (default 3600): the JWT's `exp` is its `iat` plus this. To go on after it, mint a new token. */
  ttlSeconds?: number;
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * Mints a short-lived usage token for one of your users, to hand to their browser.
 *
 * @example
 * app.post('/palaver-token', async (request, reply) => {
 *   const token = await createUsageToken({ baseUrl, apiKey: process.env.PALAVER_API_KEY!, human: request.user.id, ttlSeconds: 900 });
 *   reply.send({ token });
 * });
 */
export async function createUsageToken(options: CreateUsageTokenOptions): Promise<string> {
  const client = createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const { token } = await client.usage.createToken({ human: options.human, ...(options.ttlSeconds !== undefined ? { ttl_seconds: options.ttlSeconds } : {}) });
  return token;
}
