import type OpenAI from 'openai';
import type { ClientOptions as OpenAiClientOptions } from 'openai';

export interface PalaverOpenAiOptions {
  /** Base URL of the platform, e.g. `http://127.0.0.1:8080` (`/v1` is appended). */
  baseUrl: string;
  /** A usage token minted for one human: safe in a browser. */
  usageToken?: string;
  /** A server-side API key (never ship it to a browser); sent as `x-api-key`. */
  apiKey?: string;
  /** Ties API-key requests to a human (`x-human-id`), so that human's token limits apply. */
  humanId?: string;
  /** Anything else the `openai` package accepts (fetch, timeout, maxRetries...). */
  openAiOptions?: Omit<OpenAiClientOptions, 'apiKey' | 'baseURL'>;
}

/**
 * Returns an official `openai` client configured for the platform's OpenAI-compatible
 * `POST /v1/chat/completions`. The `openai` package is an optional peer: it is loaded only when this
 * function runs, so apps that never call it do not need it.
 *
 * With a usage token the token is the bearer key (browser use is allowed, since a usage token is
 * meant for end-user clients). With an API key the key goes in `x-api-key` (and `x-human-id` when
 * `humanId` is set); the platform also accepts an API key as the bearer value.
 *
 * @example
 * const openai = await createOpenAiClient({ baseUrl: 'https://palaver.example.com', usageToken });
 * const completion = await openai.chat.completions.create({ model: 'builtin-offline', messages: [{ role: 'user', content: 'Hi' }] });
 */
export async function createOpenAiClient(options: PalaverOpenAiOptions): Promise<OpenAI> {
  const credential = options.usageToken ?? options.apiKey;
  if (!credential) throw new TypeError('createOpenAiClient needs a usageToken or an apiKey');
  const { OpenAI: OpenAiClient } = await import('openai');
  const defaultHeaders: Record<string, string> = { ...(options.openAiOptions?.defaultHeaders as Record<string, string> | undefined) };
  if (!options.usageToken && options.apiKey) defaultHeaders['x-api-key'] = options.apiKey;
  if (options.humanId) defaultHeaders['x-human-id'] = options.humanId;
  return new OpenAiClient({
    // Explicit nulls: never pick up OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment.
    organization: null,
    project: null,
    dangerouslyAllowBrowser: options.usageToken !== undefined,
    ...options.openAiOptions,
    apiKey: credential,
    baseURL: `${options.baseUrl.replace(/\/+$/, '')}/v1`,
    defaultHeaders,
  });
}
