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
  const token = await createUsageToken({
    baseUrl: options.url ?? process.env.PALAVER_URL ?? 'http://127.0.0.1:8080',
    apiKey,
    human: options.human,
    ...(options.ttl !== undefined ? { ttlSeconds: Number(options.ttl) } : {}),
  });
  process.stdout.write(`${token}\n`);
}
