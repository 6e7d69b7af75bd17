/** One fact found in a message: `source --relation--> target`, with a readable sentence. */
export interface ExtractedFact {
  /** Entity name as written (normalised into a node key by the graph). */
  source: string;
  /** snake_case label, e.g. `lives_in`, `likes`, `favourite_colour`. */
  relation: string;
  target: string;
  /** The fact as a sentence in the third person, e.g. `user lives in Paris`. */
  fact: string;
  /**
   * True when the relation holds one target at a time (`lives_in`, `works_at`, `name`, `is`, attributes):
   * a new target invalidates the source's previous edge of that relation.
   */
  exclusive: boolean;
}

/** A message as an extractor sees it. */
export interface MemoryInput {
  text: string;
  /** The speaker's node name: the message's role (`user`, `assistant`, `system`...). */
  speaker: string;
  /** The context's project and human: a model-backed extractor's tokens are metered to them. */
  owner?: { project: string; human: string | null };
}

/**
 * Turns a message into facts for the advanced memory graph. Implementations: the offline rule-based
 * extractor ({@link RuleBasedExtractor}); model-backed ones may follow (decision 0065).
 */
export interface MemoryExtractor {
  extract(input: MemoryInput, options?: { signal?: AbortSignal }): Promise<ExtractedFact[]>;
}
