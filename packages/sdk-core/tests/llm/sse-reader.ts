/** One server-sent event as received. */
export interface ReceivedEvent {
  event: string | undefined;
  data: string;
  /** Milliseconds since the request was sent. */
  at: number;
}

/**
 * Reads a `text/event-stream` response to its end (bounded by `timeoutMs`), keeping each event's
 * arrival time so tests can check that chunks were not buffered.
 */
export async function readEvents(response: Response, sentAt: number, timeoutMs = 10_000): Promise<ReceivedEvent[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: ReceivedEvent[] = [];
  let buffer = '';
  const deadline = setTimeout(() => void reader.cancel(new Error('readEvents timed out')), timeoutMs);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let boundary: number;
      while ((boundary = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        let event: string | undefined;
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        events.push({ event, data: data.join('\n'), at: performance.now() - sentAt });
      }
    }
  } finally {
    clearTimeout(deadline);
  }
  return events;
}
