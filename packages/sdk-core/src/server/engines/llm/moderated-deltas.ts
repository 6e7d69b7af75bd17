import type { ChatDelta } from './chat-model.js';
import { ModerationSegmenter } from './moderation-segmenter.js';

/** Resolves when the text may be shown; rejects (e.g. 400 `moderation_error`) when it may not. */
export type ModerateText = (text: string, signal: AbortSignal) => Promise<void>;

type TextDelta = Extract<ChatDelta, { type: 'text' | 'refusal' }>;

/**
 * A streamed answer with its text moderated sentence by sentence: text deltas are held back until the
 * sentence they belong to is complete and `moderate` accepted it, then released in order and unchanged
 * (the model's own chunk boundaries). A delta that holds the start of a sentence not yet checked waits
 * for that sentence too, so no piece of unchecked text is ever released. Each check sees the sentence
 * together with the one checked before it, so a phrase cut by a sentence boundary is still seen whole.
 *
 * Tool-call and finish deltas end the current run of text: its rest is checked and released first, so
 * order is kept. Usage deltas pass at once. Content and refusal text are checked apart. When `moderate`
 * rejects, the iteration throws its error without releasing the sentence, and the source is closed (which
 * aborts the model). Checks run one at a time, between reads of the source.
 *
 * @example
 * for await (const delta of moderatedDeltas(model.stream(request, { signal }), moderate, signal)) send(delta);
 */
export async function* moderatedDeltas(source: AsyncIterable<ChatDelta>, moderate: ModerateText, signal: AbortSignal): AsyncGenerator<ChatDelta> {
  const sentences = new ModerationSegmenter();
  /** Text deltas not released yet, with the offset just past each one's text. */
  const held: Array<{ delta: TextDelta; end: number }> = [];
  let heldKind: TextDelta['type'] | undefined;
  let previous = '';

  const check = async (text: string) => {
    await moderate(previous === '' ? text : `${previous} ${text}`, signal);
    previous = text;
  };
  function* releaseUpTo(end: number): Generator<ChatDelta> {
    while (held.length > 0 && held[0]!.end <= end) yield held.shift()!.delta;
    if (held.length === 0) heldKind = undefined;
  }
  /** Checks the rest of the current run of text and releases everything held. */
  async function* endRun(): AsyncGenerator<ChatDelta> {
    for (const sentence of sentences.finish()) {
      await check(sentence.text);
      yield* releaseUpTo(sentence.end);
    }
    // What remains holds no letter or digit (whitespace, "..."): nothing to check.
    yield* releaseUpTo(Number.POSITIVE_INFINITY);
  }

  for await (const delta of source) {
    if (delta.type === 'usage') {
      yield delta;
      continue;
    }
    if (delta.type !== 'text' && delta.type !== 'refusal') {
      yield* endRun();
      yield delta;
      continue;
    }
    if (heldKind !== undefined && heldKind !== delta.type) yield* endRun();
    // An empty delta (the role chunk that opens a stream) holds nothing to check.
    if (delta.text === '' && held.length === 0) {
      yield delta;
      continue;
    }
    heldKind = delta.type;
    const completed = sentences.push(delta.text);
    held.push({ delta, end: sentences.received });
    for (const sentence of completed) {
      await check(sentence.text);
      yield* releaseUpTo(sentence.end);
    }
  }
  yield* endRun();
}
