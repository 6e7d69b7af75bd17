import { ConnectionError } from '@palaver/sdk-core';
import { createUsageToken } from '../tokens/create-usage-token.js';

export interface TokenOptions {
  human: string;
  ttl?: string;
  url?: string;
  apiKey?: string;
}

/** `palaver token --human <id>`: mints a usage token through a running platform. */
export async function tokenCommand(options: TokenOptions): Promise<void> {
  const apiKey = options.apiKey ?? process.env.PALAVER_API_KEY;
  if (!apiKey) throw new Error('An API key is required: pass --api-key or set PALAVER_API_KEY');
  const baseUrl = options.url ?? process.env.PALAVER_URL ?? 'http://127.0.0.1:8080';
  let token: string;
  try {
    token = await createUsageToken({
      baseUrl,
      apiKey,
      human: options.human,
      ...(options.ttl !== undefined ? { ttlSeconds: Number(options.ttl) } : {}),
    });
  } catch (error) {
    // The client's connection error names the URL; say how to fix it too.
    if (ConnectionError.isInstance(error)) throw new Error(`${error.message}; start it (pnpm start, or palaver serve) or pass --url / set PALAVER_URL`);
    throw error;
  }
  process.stdout.write(`${token}\n`);
}
