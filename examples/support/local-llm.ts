/** Where Ollama listens by default; its OpenAI-compatible API is under `/v1`. */
export const OLLAMA_DEFAULT_URL = 'http://127.0.0.1:11434';

/** An OpenAI-compatible server found on this machine, and its models. */
export interface LocalLlmServer {
  url: string;
  models: string[];
}

/**
 * Looks for an OpenAI-compatible server (Ollama) at `url`: its `GET /v1/models`, answered within `timeoutMs`.
 * Undefined when nothing answers, the answer is not a model list, or it lists no model.
 *
 * @example
 * const ollama = await detectLocalLlm(); // { url: 'http://127.0.0.1:11434', models: ['llama3.2'] } or undefined
 */
export async function detectLocalLlm(url = OLLAMA_DEFAULT_URL, timeoutMs = 500): Promise<LocalLlmServer | undefined> {
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/v1/models`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
    const models = (body.data ?? []).map((model) => model.id).filter((id): id is string => typeof id === 'string' && id !== '');
    return models.length > 0 ? { url, models } : undefined;
  } catch {
    return undefined;
  }
}
