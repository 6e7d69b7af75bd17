/**
 * `@palaver/sdk-core/openai`: the official `openai` client configured for the platform's OpenAI-compatible
 * chat completions. A separate entry so the REST entry never bundles the `openai` package.
 *
 * @example
 * import { createOpenAiClient } from '@palaver/sdk-core/openai';
 * const openai = await createOpenAiClient({ baseUrl, usageToken });
 */
export { createOpenAiClient } from './client/openai.js';
export type { PalaverOpenAiOptions } from './client/openai.js';
