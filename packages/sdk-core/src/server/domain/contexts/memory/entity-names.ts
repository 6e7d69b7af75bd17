const LEADING_ARTICLE = /^(?:the|a|an)\s+/i;

/**
 * The display form of an entity name: trimmed, inner whitespace collapsed, surrounding quotes and
 * punctuation and a leading article removed (`"the Louvre."` -> `Louvre`).
 */
export function displayName(name: string): string {
  return name
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“”‘’([]+|["'“”‘’)\].,;:!?]+$/g, '')
    .replace(LEADING_ARTICLE, '')
    .trim();
}

/** The key two mentions of one entity share: the display name in lower case (`The Louvre` and `louvre`). */
export function nameKey(name: string): string {
  return displayName(name).toLowerCase();
}

const STOPWORDS = new Set(
  (
    'a an the and or but if of to in on at for from by with about as into than then so is am are was were be been being ' +
    'do does did done have has had i me my mine myself you your yours we our us he him his she her it its they them their ' +
    'this that these those what which who whom whose where when why how there here not no yes can could would should will ' +
    'shall may might must just also very too any some all more most much many tell know remember please'
  ).split(' '),
);

/** Crude stem: lower case, a plural or third-person `s` dropped (`lives` -> `live`, `cats` -> `cat`). */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The content words of a text, stemmed, for token-overlap matching (stopwords left out). */
export function contentTokens(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((word) => !STOPWORDS.has(word)).map(stem));
}

/** Whether `text` mentions a first-person pronoun (the speaker). */
export function mentionsSpeaker(text: string): boolean {
  return /\b(?:i|me|my|mine|myself|i'm|i've|i'd)\b/i.test(text);
}
