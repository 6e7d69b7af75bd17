import { displayName, nameKey } from './entity-names.js';
import type { ExtractedFact, MemoryExtractor, MemoryInput } from './memory-extractor.js';
import { EXCLUSIVE_RELATIONS, relationLabel } from './relations.js';

/** A verb pattern after the subject: what it captures is the object. */
interface VerbRule {
  pattern: RegExp;
  relation: string | ((verb: string) => string);
  /** Third-person phrase between the source and the object in the fact sentence. */
  phrase: string | ((verb: string) => string);
  /** The object may be a list (`cats, dogs and birds`): one fact per item. */
  list?: boolean;
}

const SENTIMENT_OF: Record<string, string> = { like: 'likes', enjoy: 'likes', love: 'loves', hate: 'hates', prefer: 'prefers', dislike: 'dislikes' };
const sentiment = (verb: string): string => SENTIMENT_OF[verb.toLowerCase().replace(/s$/, '')] ?? 'likes';

/** Ordered: the first matching rule wins. */
const VERB_RULES: VerbRule[] = [
  { pattern: /^(?:do|does) not (?:like|love|enjoy)\s+(.+)$/i, relation: 'dislikes', phrase: 'dislikes', list: true },
  { pattern: /^(likes?|loves?|hates?|prefers?|enjoys?|dislikes?)\s+(.+)$/i, relation: sentiment, phrase: sentiment, list: true },
  { pattern: /^(?:live|lives|am living|is living|are living)\s+in\s+(.+)$/i, relation: 'lives_in', phrase: 'lives in' },
  { pattern: /^(?:moved|have moved|has moved)\s+to\s+(.+)$/i, relation: 'lives_in', phrase: 'lives in' },
  { pattern: /^(?:work|works|am working|is working|are working)\s+(?:at|for)\s+(.+)$/i, relation: 'works_at', phrase: 'works at' },
  { pattern: /^(?:was|were)\s+born\s+in\s+(.+)$/i, relation: 'born_in', phrase: 'was born in' },
  { pattern: /^(?:am|is|are)\s+from\s+(.+)$/i, relation: 'from', phrase: 'is from' },
  { pattern: /^(?:am|is|are)\s+married\s+to\s+(.+)$/i, relation: 'married_to', phrase: 'is married to' },
  { pattern: /^(?:am|is|are)\s+called\s+(.+)$/i, relation: 'name', phrase: "'s name is" },
  { pattern: /^(?:am|is|are)\s+(.+)$/i, relation: 'is', phrase: 'is' },
];

/** Capitalised words that start sentences without naming an entity. */
const NOT_NAMES = new Set(
  (
    'the it this that these those there here he she they we you what who whom whose where when why how which i my our your ' +
    'his her their its yes no hi hello hey thanks thank ok okay today tomorrow yesterday everyone everybody someone somebody ' +
    'nobody nothing something everything please sure well so also then now maybe perhaps'
  ).split(' '),
);

/** Objects that refer back instead of naming something (no coreference here). */
const PRONOUN_OBJECT = /^(?:it|this|that|these|those|them|him|her|you|me|us|something|anything|nothing|everything|there|here)\b/i;
/** Clauses that assert nothing: hypotheses, wishes, negations, questions. */
const NOT_ASSERTED = /\b(?:if|would|could|should|might|maybe|perhaps|probably|wish|wants?|not|never|no longer|unless)\b/i;
const QUESTION_START = /^(?:do|does|did|is|are|am|was|were|can|could|would|will|should|what|where|who|whom|whose|when|why|how|which)\b/i;
const LEADING_FILLER = /^(?:hi there|hello there|hi|hello|hey|well|so|oh|ok|okay|also|actually|by the way|btw|anyway|and|but|now)\b[\s,!.:-]*/i;
const ADVERB = /^(?:currently|still|now|also|really|actually|absolutely|just|even)\s+/i;
const TRAILING_ADVERB = /\s+(?:now|nowadays|these days|currently|anymore|too|as well|a lot|very much|so much|today)$/i;
const OBJECT_END = /\s*(?:[,;:()]|\s-\s|\bbecause\b|\bsince\b|\bwhen\b|\bwhere\b|\bwhich\b|\bwho\b|\bbut\b|\bthough\b|\balthough\b)\s*/i;
/** The same ends, commas excepted: they separate the items of a list object. */
const LIST_END = new RegExp(OBJECT_END.source.replace('[,;:()]', '[;:()]'), 'i');
const NAME = String.raw`(?:The\s+)?[A-Z][\p{L}\p{N}.-]*(?:\s+[A-Z][\p{L}\p{N}.-]*){0,3}`;
const ATTRIBUTE = String.raw`[\p{Ll}-]+(?:\s+[\p{Ll}-]+){0,2}`;
const POSSESSIVE_OF_SPEAKER = new RegExp(String.raw`^my\s+(${ATTRIBUTE})\s+(?:is|are)\s+(.+)$`, 'iu');
const POSSESSIVE_OF_NAME = new RegExp(String.raw`^(${NAME})'s\s+(${ATTRIBUTE})\s+(?:is|are)\s+(.+)$`, 'u');
const NAME_SUBJECT = new RegExp(String.raw`^(${NAME})\s+(.+)$`, 'u');
const MAX_OBJECT_WORDS = 6;

function normaliseContractions(text: string): string {
  return text
    .replace(/[’‘]/g, "'")
    .replace(/\bI'm\b/gi, 'I am')
    .replace(/\bI've\b/gi, 'I have')
    .replace(/\bI'd\b/gi, 'I would')
    .replace(/\bcan't\b/gi, 'can not')
    .replace(/\bwon't\b/gi, 'will not')
    .replace(/\b(do|does|did|is|are|was|were|have|has)n't\b/gi, '$1 not')
    .replace(/\b(he|she|it|that|what|who|there)'s\b/gi, '$1 is');
}

/** Sentences that state something: questions are dropped. */
function statements(text: string): string[] {
  // Runs of blanks collapsed first: every pattern then meets at most one blank at a time (no quadratic scans).
  return normaliseContractions(text.replace(/[^\S\n]+/g, ' '))
    .split(/(?<=[.!?]) |\s*\n\s*/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0 && !sentence.endsWith('?'));
}

/** Clauses of a statement: split before a new first-person subject (`..., and I work at Acme`). */
function clauses(sentence: string): string[] {
  return sentence
    .split(/\s*;\s*|,?\s+(?:and|but|so)\s+(?=(?:i|my)\b)|,\s+(?=(?:i|my)\b)/i)
    .map((clause) => {
      let rest = clause.trim().replace(/[.!]+$/, '');
      for (let previous = ''; previous !== rest;) {
        previous = rest;
        rest = rest.replace(LEADING_FILLER, '');
      }
      return rest;
    })
    .filter((clause) => clause.length > 0 && !QUESTION_START.test(clause));
}

/** The object phrase(s) of a clause: cut at a subordinate clause, trailing adverbs dropped, lists split. */
function objectsOf(raw: string, list: boolean): string[] {
  const head = raw.split(list ? LIST_END : OBJECT_END)[0] ?? '';
  const items = list ? head.split(/\s*(?:,|\band\b|\bor\b)\s*/i) : [head];
  return items.flatMap((item) => {
    let object = item.trim().replace(/[.!]+$/, '');
    for (let previous = ''; previous !== object;) {
      previous = object;
      object = object.replace(TRAILING_ADVERB, '').trim();
    }
    const words = object.split(/\s+/).filter(Boolean);
    if (words.length === 0 || words.length > MAX_OBJECT_WORDS || PRONOUN_OBJECT.test(object) || displayName(object) === '') return [];
    return [object];
  });
}

/** An `is` object that describes an activity or a place rather than what the subject is. */
function isCopulaNoise(object: string): boolean {
  return /^(?:[\p{L}]+ing|in|at|on|to|with|about|going|here|there|sure|sorry|afraid|glad|able|not)\b/iu.test(object);
}

function fact(source: string, relation: string, target: string, sentence: string, exclusive = EXCLUSIVE_RELATIONS.has(relation)): ExtractedFact {
  return { source, relation, target: displayName(target), fact: sentence, exclusive };
}

/**
 * The offline extractor: English statements matched against subject-verb-object patterns, no model and
 * no network. Subjects are the speaker (`I`, `my ...`) or a capitalised name; objects are short phrases.
 * Questions, hypotheses and negations (other than `do not like`) assert nothing and are ignored.
 *
 * @example
 * await new RuleBasedExtractor().extract({ text: 'My name is Alice. I live in Paris.', speaker: 'user' });
 * // [{ source: 'user', relation: 'name', target: 'Alice', ... }, { source: 'user', relation: 'lives_in', target: 'Paris', ... }]
 */
export class RuleBasedExtractor implements MemoryExtractor {
  async extract(input: MemoryInput): Promise<ExtractedFact[]> {
    return this.extractSync(input);
  }

  extractSync({ text, speaker }: MemoryInput): ExtractedFact[] {
    const facts: ExtractedFact[] = [];
    for (const sentence of statements(text)) {
      for (const clause of clauses(sentence)) facts.push(...this.clauseFacts(clause, speaker));
    }
    const seen = new Set<string>();
    return facts.filter((item) => {
      const key = `${nameKey(item.source)}\u0000${item.relation}\u0000${nameKey(item.target)}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  private clauseFacts(clause: string, speaker: string): ExtractedFact[] {
    const callMe = /^call me\s+(.+)$/i.exec(clause);
    if (callMe) return objectsOf(callMe[1]!, false).map((name) => fact(speaker, 'name', name, `${speaker}'s name is ${displayName(name)}`));

    const possessive = POSSESSIVE_OF_SPEAKER.exec(clause) ?? POSSESSIVE_OF_NAME.exec(clause);
    if (possessive) {
      const [owner, attribute, rest] = possessive.length === 3 ? [speaker, possessive[1]!, possessive[2]!] : [possessive[1]!, possessive[2]!, possessive[3]!];
      const source = owner === speaker ? speaker : displayName(owner);
      if (NOT_ASSERTED.test(rest) || (owner !== speaker && NOT_NAMES.has(nameKey(owner)))) return [];
      const relation = relationLabel(attribute);
      // An attribute (`X's colour is Y`) has one value at a time.
      return objectsOf(rest, false).map((object) => fact(source, relation, object, `${source}'s ${attribute.toLowerCase()} is ${object}`, true));
    }

    const subject = this.subjectOf(clause, speaker);
    if (!subject) return [];
    let rest = subject.rest;
    while (ADVERB.test(rest)) rest = rest.replace(ADVERB, '');
    for (const rule of VERB_RULES) {
      const match = rule.pattern.exec(rest);
      if (!match) continue;
      const verb = match.length > 2 ? match[1]! : '';
      const raw = match[match.length - 1]!;
      const relation = typeof rule.relation === 'function' ? rule.relation(verb) : rule.relation;
      const phrase = typeof rule.phrase === 'function' ? rule.phrase(verb) : rule.phrase;
      if (relation !== 'dislikes' && NOT_ASSERTED.test(rest)) return [];
      const objects = objectsOf(raw, rule.list === true).filter((object) => relation !== 'is' || !isCopulaNoise(object));
      const joiner = phrase.startsWith("'") ? '' : ' ';
      return objects.map((object) => fact(subject.source, relation, object, `${subject.source}${joiner}${phrase} ${object}`));
    }
    return [];
  }

  /** The subject of a clause: the speaker (`I`) or a capitalised name, and the rest of the clause. */
  private subjectOf(clause: string, speaker: string): { source: string; rest: string } | undefined {
    const first = /^I\s+(.+)$/i.exec(clause);
    if (first) return { source: speaker, rest: first[1]! };
    const named = NAME_SUBJECT.exec(clause);
    if (!named) return undefined;
    const source = displayName(named[1]!);
    if (source === '' || NOT_NAMES.has(nameKey(source)) || NOT_NAMES.has(nameKey(source.split(' ')[0]!))) return undefined;
    return { source, rest: named[2]! };
  }
}
