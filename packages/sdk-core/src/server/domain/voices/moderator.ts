/** The verdict of a moderation check. */
export interface ModerationResult {
  flagged: boolean;
  /** Categories that matched (`violence`, `self-harm`...); empty when not flagged. */
  categories: string[];
}

/**
 * Checks text before it is spoken (`POST /v1/voice/generate` with `moderation: true`). The embedded
 * {@link WordListModerator} works offline; {@link OpenAiModerator} calls an OpenAI-compatible `/moderations`.
 *
 * @example
 * const verdict = await moderator.check('Hello there');
 * if (verdict.flagged) throw new ModerationError(`refused: ${verdict.categories.join(', ')}`);
 */
export interface Moderator {
  /** Where verdicts come from, for logs and error messages (`word-list`, `openai`). */
  readonly name: string;
  check(text: string, signal?: AbortSignal): Promise<ModerationResult>;
}
