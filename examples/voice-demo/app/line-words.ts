import type { SDKSessionTranscription } from '@palaver/sdk-core/realtime';

/** Opening quotes and the closing quote each needs. */
const QUOTES: Array<[open: string, close: string]> = [
  ['“', '”'],
  ['‘', '’'],
];

/** The closing quotes a cut sentence leaves open, innermost first. */
function openQuotes(text: string): string {
  let closing = '';
  if ((text.match(/"/g)?.length ?? 0) % 2 === 1) closing += '"';
  for (const [open, close] of QUOTES) {
    const missing = text.split(open).length - text.split(close).length;
    if (missing > 0) closing = close.repeat(missing) + closing;
  }
  return closing;
}

/**
 * The words to show for a line: as said, or, for the agent's line cut by the human, what was heard followed by an
 * ellipsis, with any quote it opened closed (`You said: "what is` -> `You said: "what is…"`).
 *
 * @example
 * lineWords({ ...line, text: 'You said: "what is', interrupted: true }); // 'You said: "what is…"'
 */
export function lineWords(line: Pick<SDKSessionTranscription, 'text' | 'interrupted'>): string {
  if (!line.interrupted) return line.text;
  const heard = line.text.trimEnd().replace(/[\s,;:\-–—(]+$/u, '');
  return `${heard}…${openQuotes(heard)}`;
}
