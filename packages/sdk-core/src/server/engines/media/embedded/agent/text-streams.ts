import { randomUUID } from 'node:crypto';
import { DataStream_Chunk, DataStream_Header, DataStream_OperationType, DataStream_TextHeader, DataStream_Trailer } from '@livekit/protocol';
import type { IncomingTextStream } from '../../agent-transport.js';
import { AsyncQueue } from '../../../../kernel/async-queue.js';

/** Chunks stay below the SCTP message size every client accepts. */
const MAX_CHUNK_BYTES = 15_000;
/** Concurrent incoming streams per connection (a flood of headers must not grow memory without bound). */
const MAX_OPEN_STREAMS = 64;
/** Largest incoming text kept (bytes). */
const MAX_STREAM_BYTES = 4 * 1024 * 1024;

type StreamPacket =
  { case: 'streamHeader'; value: DataStream_Header } | { case: 'streamChunk'; value: DataStream_Chunk } | { case: 'streamTrailer'; value: DataStream_Trailer };

/** Splits UTF-8 text into chunks of at most `MAX_CHUNK_BYTES` without cutting a character. */
export function splitUtf8(text: string): Uint8Array[] {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + MAX_CHUNK_BYTES, bytes.length);
    // Back off continuation bytes (10xxxxxx) so the chunk ends on a character boundary.
    while (end < bytes.length && end > start && (bytes[end]! & 0xc0) === 0x80) end -= 1;
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}

/**
 * Builds the packets of an outgoing text stream: header, chunks, trailer.
 *
 * @example
 * const writer = new OutgoingTextStream('lk.transcription', {}, send);
 * await writer.write('hello'); await writer.close();
 */
export class OutgoingTextStream {
  readonly id = randomUUID();
  private chunkIndex = 0n;
  private opened: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly topic: string,
    private readonly attributes: Record<string, string>,
    private readonly send: (packet: StreamPacket) => Promise<void>,
    private readonly totalLength?: number,
  ) {}

  async write(text: string): Promise<void> {
    if (this.closed) throw new Error('Text stream is closed');
    await this.open();
    for (const content of splitUtf8(text)) {
      await this.send({ case: 'streamChunk', value: new DataStream_Chunk({ streamId: this.id, chunkIndex: this.chunkIndex, content }) });
      this.chunkIndex += 1n;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.open();
    this.closed = true;
    await this.send({ case: 'streamTrailer', value: new DataStream_Trailer({ streamId: this.id, reason: '', attributes: {} }) });
  }

  private open(): Promise<void> {
    this.opened ??= this.send({
      case: 'streamHeader',
      value: new DataStream_Header({
        streamId: this.id,
        timestamp: BigInt(Date.now()),
        topic: this.topic,
        mimeType: 'text/plain',
        attributes: this.attributes,
        ...(this.totalLength !== undefined ? { totalLength: BigInt(this.totalLength) } : {}),
        contentHeader: {
          case: 'textHeader',
          value: new DataStream_TextHeader({ operationType: DataStream_OperationType.CREATE, generated: false }),
        },
      }),
    });
    return this.opened;
  }
}

class IncomingText implements IncomingTextStream {
  readonly queue = new AsyncQueue<string>();
  private readonly decoder = new TextDecoder();
  received = 0;
  private collected: string[] = [];
  private consumed = false;

  constructor(
    readonly id: string,
    readonly topic: string,
    readonly from: string,
    readonly timestamp: number,
    readonly attributes: Record<string, string>,
  ) {}

  push(content: Uint8Array): void {
    this.received += content.byteLength;
    const text = this.decoder.decode(content, { stream: true });
    if (text) this.queue.push(text);
  }

  end(): void {
    const rest = this.decoder.decode();
    if (rest) this.queue.push(rest);
    this.queue.end();
  }

  [Symbol.asyncIterator](): AsyncIterator<string> {
    this.consumed = true;
    return this.queue[Symbol.asyncIterator]();
  }

  async readAll(): Promise<string> {
    if (this.consumed) return this.collected.join('');
    this.consumed = true;
    for await (const text of this.queue) this.collected.push(text);
    return this.collected.join('');
  }
}

/**
 * Reassembles incoming text streams from stream packets. Byte streams are ignored (the agent
 * only uses text).
 */
export class IncomingTextStreams {
  private readonly open = new Map<string, IncomingText>();

  constructor(
    private readonly onStream: (stream: IncomingTextStream) => void,
    /** Streams on topics nobody listens to are not buffered. */
    private readonly wanted: (topic: string) => boolean = () => true,
  ) {}

  handle(packet: StreamPacket, from: string): void {
    switch (packet.case) {
      case 'streamHeader': {
        const header = packet.value;
        if (header.contentHeader.case !== 'textHeader' || this.open.has(header.streamId) || !this.wanted(header.topic)) return;
        const stream = new IncomingText(header.streamId, header.topic, from, Number(header.timestamp), { ...header.attributes });
        if (header.inlineContent !== undefined) {
          stream.push(header.inlineContent);
          stream.end();
          this.onStream(stream);
          return;
        }
        if (this.open.size >= MAX_OPEN_STREAMS) return;
        this.open.set(header.streamId, stream);
        this.onStream(stream);
        return;
      }
      case 'streamChunk': {
        const stream = this.open.get(packet.value.streamId);
        if (!stream || stream.from !== from) return;
        stream.push(packet.value.content);
        if (stream.received > MAX_STREAM_BYTES) this.finish(stream.id);
        return;
      }
      case 'streamTrailer': {
        const stream = this.open.get(packet.value.streamId);
        if (stream?.from !== from) return;
        Object.assign(stream.attributes, packet.value.attributes);
        this.finish(stream.id);
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

  private finish(id: string): void {
    const stream = this.open.get(id);
    if (!stream) return;
    this.open.delete(id);
    stream.end();
  }
}
