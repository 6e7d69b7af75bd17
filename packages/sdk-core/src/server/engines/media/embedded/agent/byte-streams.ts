import type { DataStream_Chunk, DataStream_Header, DataStream_Trailer } from '@livekit/protocol';
import type { IncomingByteStream } from '../../agent-transport.js';
import { AsyncQueue } from '../../../../kernel/async-queue.js';

/** Concurrent incoming byte streams per connection (a flood of headers must not grow memory without bound). */
const MAX_OPEN_STREAMS = 16;
/** Largest incoming byte stream kept (a 10 s pre-connect recording of Opus in WebM is ~40 KB). */
const MAX_STREAM_BYTES = 8 * 1024 * 1024;

type StreamPacket =
  { case: 'streamHeader'; value: DataStream_Header } | { case: 'streamChunk'; value: DataStream_Chunk } | { case: 'streamTrailer'; value: DataStream_Trailer };

class IncomingBytes implements IncomingByteStream {
  readonly queue = new AsyncQueue<Uint8Array>();
  received = 0;

  constructor(
    readonly id: string,
    readonly topic: string,
    readonly from: string,
    readonly mimeType: string,
    readonly timestamp: number,
    readonly attributes: Record<string, string>,
  ) {}

  push(content: Uint8Array): void {
    this.received += content.byteLength;
    if (content.byteLength > 0) this.queue.push(content);
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return this.queue[Symbol.asyncIterator]();
  }
}

/**
 * Reassembles incoming byte streams from stream packets (text streams are {@link IncomingTextStreams}'). Chunks of a
 * stream are taken only from the participant that opened it; a stream over the size bound is cut there.
 *
 * @example
 * const streams = new IncomingByteStreams((stream) => handlers.get(stream.topic)?.(stream), (topic) => handlers.has(topic));
 * streams.handle(packet.value, packet.participantIdentity);
 */
export class IncomingByteStreams {
  private readonly open = new Map<string, IncomingBytes>();

  constructor(
    private readonly onStream: (stream: IncomingByteStream) => void,
    /** Streams on topics nobody listens to are not buffered. */
    private readonly wanted: (topic: string) => boolean,
  ) {}

  handle(packet: StreamPacket, from: string): void {
    switch (packet.case) {
      case 'streamHeader':
        return this.opened(packet.value, from);
      case 'streamChunk': {
        const stream = this.open.get(packet.value.streamId);
        if (!stream || stream.from !== from) return;
        stream.push(packet.value.content);
        if (stream.received > MAX_STREAM_BYTES) this.finish(stream.id);
        return;
      }
      case 'streamTrailer': {
        const stream = this.open.get(packet.value.streamId);
        if (stream?.from === from) this.finish(stream.id);
        return;
      }
    }
  }

  /** Ends every stream a participant had open (it left). */
  endFrom(identity: string): void {
    for (const stream of [...this.open.values()]) if (stream.from === identity) this.finish(stream.id);
  }

  endAll(): void {
    for (const id of [...this.open.keys()]) this.finish(id);
  }

  private opened(header: DataStream_Header, from: string): void {
    if (header.contentHeader.case !== 'byteHeader' || this.open.has(header.streamId) || !this.wanted(header.topic)) return;
    const stream = new IncomingBytes(header.streamId, header.topic, from, header.mimeType, Number(header.timestamp), { ...header.attributes });
    if (header.inlineContent !== undefined) {
      stream.push(header.inlineContent);
      stream.queue.end();
      this.onStream(stream);
      return;
    }
    if (this.open.size >= MAX_OPEN_STREAMS) return;
    this.open.set(header.streamId, stream);
    this.onStream(stream);
  }

  private finish(id: string): void {
    const stream = this.open.get(id);
    if (!stream) return;
    this.open.delete(id);
    stream.queue.end();
  }
}
