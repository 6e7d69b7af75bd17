import type { StreamingFinal, StreamingInterim, StreamingSttClosed, StreamingSttError, StreamingSttStream } from '../../server/engines/speech/index.js';

/** One event of a streaming STT stream, tagged with its name, in the order it came. */
export type RecordedSttEvent =
  | ({ type: 'interim' } & StreamingInterim)
  | ({ type: 'final' } & StreamingFinal)
  | { type: 'speech_started'; at: number }
  | { type: 'utterance_end'; lastWordEnd?: number }
  | { type: 'reconnecting'; attempt: number; delayMs: number; cause: Error }
  | { type: 'reconnected'; attempt: number }
  | { type: 'error'; error: StreamingSttError }
  | ({ type: 'closed' } & StreamingSttClosed);

/**
 * Everything a stream reports, in order, with a bounded wait for an event (tests and benches).
 *
 * @example
 * const events = recordStream(stream);
 * const final = await events.next('final', (event) => event.endOfSpeech);
 */
export function recordStream(stream: StreamingSttStream) {
  const events: RecordedSttEvent[] = [];
  const waiters = new Set<() => void>();
  const add = (event: RecordedSttEvent) => {
    events.push(event);
    for (const wake of [...waiters]) wake();
  };
  stream.on('interim', (result) => add({ type: 'interim', ...result }));
  stream.on('final', (result) => add({ type: 'final', ...result }));
  stream.on('speech_started', (event) => add({ type: 'speech_started', ...event }));
  stream.on('utterance_end', (event) => add({ type: 'utterance_end', ...event }));
  stream.on('reconnecting', (event) => add({ type: 'reconnecting', ...event }));
  stream.on('reconnected', (event) => add({ type: 'reconnected', ...event }));
  stream.on('error', (error) => add({ type: 'error', error }));
  stream.on('closed', (event) => add({ type: 'closed', ...event }));

  function of<T extends RecordedSttEvent['type']>(type: T): Array<Extract<RecordedSttEvent, { type: T }>> {
    return events.filter((event): event is Extract<RecordedSttEvent, { type: T }> => event.type === type);
  }

  /** The first event of `type` (matching `where`) recorded after `from` events; waits at most `timeoutMs`. */
  function next<T extends RecordedSttEvent['type']>(
    type: T,
    where: (event: Extract<RecordedSttEvent, { type: T }>) => boolean = () => true,
    { from = 0, timeoutMs = 10_000 }: { from?: number; timeoutMs?: number } = {},
  ): Promise<Extract<RecordedSttEvent, { type: T }>> {
    const find = () =>
      events
        .slice(from)
        .find((event): event is Extract<RecordedSttEvent, { type: T }> => event.type === type && where(event as Extract<RecordedSttEvent, { type: T }>));
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (!found) return false;
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(found);
        return true;
      };
      const wake = () => void check();
      const timer = setTimeout(() => {
        waiters.delete(wake);
        reject(new Error(`no ${type} event within ${timeoutMs} ms; got: ${events.map((event) => event.type).join(', ') || 'nothing'}`));
      }, timeoutMs);
      if (!check()) waiters.add(wake);
    });
  }

  return { events, of, next };
}
export type RecordedStream = ReturnType<typeof recordStream>;
