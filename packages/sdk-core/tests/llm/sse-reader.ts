/** One server-sent event as received. */
export interface ReceivedEvent {
  event: string | undefined;
  data: string;
  /** Milliseconds since the request was sent. */
  at: number;
}

/**
 * Reads a `text/event-stream` response to its end (bounded by `timeoutMs`), keeping each event's
 * arrival time.
 */
export async function readEvents(response: Response, sentAt: number, timeoutMs = 10_000): Promise<ReceivedEvent[]> {
  return read(response, sentAt, () => false, timeoutMs);
}

/**
 * Reads a `text/event-stream` response until `enough(events)` holds, then cancels it: what arrived while the stream
 * was still open (an upstream that stalls never ends it). Bounded by `timeoutMs`, a deadline for waiting.
 */
export async function readEventsUntil(response: Response, enough: (events: ReceivedEvent[]) => boolean, timeoutMs = 10_000): Promise<ReceivedEvent[]> {
  return read(response, performance.now(), enough, timeoutMs);
}

async function read(response: Response, sentAt: number, enough: (events: ReceivedEvent[]) => boolean, timeoutMs: number): Promise<ReceivedEvent[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: ReceivedEvent[] = [];
  let buffer = '';
  const deadline = setTimeout(() => void reader.cancel(new Error('readEvents timed out')), timeoutMs);
  try {
    while (!enough(events)) {
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
    if (enough(events)) await reader.cancel();
  } finally {
    clearTimeout(deadline);
  }
  return events;
}
