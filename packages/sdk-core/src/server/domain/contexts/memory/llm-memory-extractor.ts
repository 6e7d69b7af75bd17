import type { Logger } from 'pino';
import { z } from 'zod';
import type { ChatPort } from '../../../kernel/ports/chat.js';
import type { Principal } from '../../../kernel/principal.js';
import { displayName } from './entity-names.js';
import type { ExtractedFact, MemoryExtractor, MemoryInput } from './memory-extractor.js';
import { EXCLUSIVE_RELATIONS, relationLabel } from './relations.js';

/** Most facts taken from one answer. */
const MAX_FACTS = 30;

const ModelFacts = z.object({
  facts: z
    .array(
      z.object({
        source: z.string().min(1).max(200),
        relation: z.string().min(1).max(100),
        target: z.string().min(1).max(200),
        fact: z.string().min(1).max(500),
        exclusive: z.boolean().optional(),
      }),
    )
    .max(100),
});

function instructions(speaker: string): string {
  return [
    'You extract facts for a knowledge graph from one chat message. Answer with one JSON object only, no prose:',
    '{"facts":[{"source":"...","relation":"...","target":"...","fact":"...","exclusive":true}]}',
    `- The message's speaker is the entity "${speaker}": use that name for I, me and my.`,
    '- source and target are short entity names (a person, place, organisation, thing or value).',
    '- relation is a short snake_case label: lives_in, works_at, name, is, likes, hates, born_in, or the attribute of a possessive (favourite_colour).',
    '- fact is the fact as one sentence in the third person.',
    '- exclusive is true when the source has one target of that relation at a time (lives_in, works_at, name, is), false otherwise (likes).',
    '- Only what the message states as true: no questions, wishes, guesses or negated statements. With none, answer {"facts":[]}.',
  ].join('\n');
}

/** The JSON object of an answer, also when wrapped in a code fence or prose. */
function jsonObjectOf(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('the answer holds no JSON object');
  return JSON.parse(text.slice(start, end + 1));
}

export interface LlmMemoryExtractorOptions {
  chat: Pick<ChatPort, 'complete'>;
  /** The LLM id (built-in or of the context's project) that extracts. */
  model: string;
  /** Used when the model fails or answers something that is not the facts JSON. */
  fallback: MemoryExtractor;
  logger?: Logger;
}

/**
 * Extraction by an LLM through the platform's gateway (so its tokens are metered to the context's human
 * as `token_cnt`): the model answers the facts as JSON. An upstream failure or an answer that is not the
 * expected JSON falls back to the offline extractor, so appending a message never fails because of it.
 */
export class LlmMemoryExtractor implements MemoryExtractor {
  constructor(private readonly options: LlmMemoryExtractorOptions) {}

  async extract(input: MemoryInput, options: { signal?: AbortSignal } = {}): Promise<ExtractedFact[]> {
    if (input.text.trim() === '') return [];
    const principal: Principal = {
      project: input.owner?.project ?? '',
      human: input.owner?.human ?? null,
      kind: 'key',
      credentialId: 'advanced-memory',
    };
    try {
      const completion = await this.options.chat.complete(
        principal,
        {
          model: this.options.model,
          messages: [
            { role: 'system', content: instructions(input.speaker) },
            { role: 'user', content: input.text },
          ],
          stream: false,
          temperature: 0,
          parallel_tool_calls: false,
        },
        { signal: options.signal ?? new AbortController().signal },
      );
      const answer = ModelFacts.parse(jsonObjectOf(completion.choices[0]?.message.content ?? ''));
      return answer.facts.slice(0, MAX_FACTS).flatMap((fact) => {
        const speakerWords = /^(?:i|me|my|myself|speaker|the speaker)$/i;
        const source = speakerWords.test(fact.source.trim()) ? input.speaker : displayName(fact.source);
        const target = displayName(fact.target);
        const relation = relationLabel(fact.relation);
        if (source === '' || target === '' || relation === '') return [];
        return [{ source, relation, target, fact: fact.fact.trim(), exclusive: fact.exclusive ?? EXCLUSIVE_RELATIONS.has(relation) }];
      });
    } catch (error) {
      this.options.logger?.warn({ err: error, model: this.options.model }, 'memory extraction by the LLM failed; using the offline extractor');
      return this.options.fallback.extract(input, options);
    }
  }
}
