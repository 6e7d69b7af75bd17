import type { RuntimeNode } from '../../runtime/graph-node.js';

/**
 * One value from each of `padIds` at a time, in pad order, until the run stops: what the engine's zip nodes
 * (AVClipZip, ContextMessageZip) wait for before making one value of them.
 *
 * @example
 * for await (const [video, audio] of zipSinks(node, ['video_clip', 'audio_clip'], signal)) pair(video, audio);
 */
export async function* zipSinks(node: RuntimeNode, padIds: readonly string[], signal: AbortSignal): AsyncGenerator<unknown[]> {
  const iterators = padIds.map((id) => node.sink(id)[Symbol.asyncIterator]());
  const stop = (): void => {
    for (const iterator of iterators) void iterator.return?.();
  };
  signal.addEventListener('abort', stop, { once: true });
  try {
    while (!signal.aborted) {
      const results = await Promise.all(iterators.map((iterator) => iterator.next()));
      if (signal.aborted || results.some((result) => result.done)) return;
      yield results.map((result): unknown => result.value);
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
