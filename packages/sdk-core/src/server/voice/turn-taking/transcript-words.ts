/**
 * The words of a transcript, as the turn-taking code compares and scores them: lowercase, without recogniser markup
 * (`[noise]`, `<sil>`, `(2)`) or punctuation; letters and digits of any script are kept, with apostrophes inside
 * words ("it's", typographic ones too: "it’s").
 *
 * @example
 * transcriptWords("It's <s> fine, [laugh] OK?"); // ["it's", 'fine', 'ok']
 */
export function transcriptWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\[[^\]]*\]|<[^>]*>|\([^)]*\)/g, ' ')
    .replace(/[^\p{L}\p{M}\p{N}'\s]/gu, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && word !== "'");
}
