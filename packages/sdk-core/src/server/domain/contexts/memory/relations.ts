/** Relations a source holds with one target at a time: a new target invalidates the previous edge. */
export const EXCLUSIVE_RELATIONS: ReadonlySet<string> = new Set(['is', 'name', 'lives_in', 'works_at', 'born_in', 'from', 'married_to']);

/**
 * Feelings about a target: a new one (`hates`) invalidates a different earlier one (`likes`) between the
 * same two nodes, while a source may like many targets.
 */
export const SENTIMENT_RELATIONS: ReadonlySet<string> = new Set(['likes', 'loves', 'hates', 'dislikes', 'prefers']);

/** `favourite colour` -> `favourite_colour`. */
export function relationLabel(words: string): string {
  return words
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}
