import { z } from 'zod';
import { type VendorEndpoint, vendorPost } from '../../engines/speech/index.js';
import type { ModerationResult, Moderator } from './moderator.js';

/** The part of an OpenAI `/moderations` answer that is read. */
const ModerationAnswer = z.object({
  results: z.array(z.object({ flagged: z.boolean(), categories: z.record(z.string(), z.boolean().nullable()).optional() })).min(1),
});

/**
 * Moderation through an OpenAI-compatible `POST {baseUrl}/moderations` (`{ model, input }` ->
 * `results[0].flagged` and its true `categories`). A failing endpoint rejects (the caller answers 502:
 * text that was asked to be moderated is never spoken unchecked).
 *
 * @example
 * const moderator = new OpenAiModerator({ baseUrl: 'https://api.openai.com/v1', apiKey, model: 'omni-moderation-latest' });
 * const verdict = await moderator.check('some text');
 */
export class OpenAiModerator implements Moderator {
  readonly name = 'openai';

  constructor(private readonly endpoint: VendorEndpoint) {}

  async check(text: string, signal?: AbortSignal): Promise<ModerationResult> {
    const response = await vendorPost(this.endpoint, '/moderations', {
      body: JSON.stringify({ model: this.endpoint.model, input: text }),
      json: true,
      ...(signal ? { signal } : {}),
    });
    const answer = ModerationAnswer.parse(await response.json());
    const flagged = answer.results.some((result) => result.flagged);
    const categories = new Set<string>();
    for (const result of answer.results) {
      for (const [category, value] of Object.entries(result.categories ?? {})) if (value) categories.add(category);
    }
    return { flagged, categories: flagged ? [...categories] : [] };
  }
}
