/**
 * Word error rate: word-level edit distance over the reference length, after lower-casing and
 * dropping punctuation.
 *
 * @example
 * wordErrorRate('the quick brown fox', 'the quick brown box'); // 0.25
 */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const expected = words(reference);
  const actual = words(hypothesis);
  if (expected.length === 0) return actual.length === 0 ? 0 : 1;
  let previous = Array.from({ length: actual.length + 1 }, (_, index) => index);
  for (let row = 1; row <= expected.length; row++) {
    const current = [row];
    for (let column = 1; column <= actual.length; column++) {
      const substitution = previous[column - 1]! + (expected[row - 1] === actual[column - 1] ? 0 : 1);
      current.push(Math.min(substitution, previous[column]! + 1, current[column - 1]! + 1));
    }
    previous = current;
  }
  return previous[actual.length]! / expected.length;
}
