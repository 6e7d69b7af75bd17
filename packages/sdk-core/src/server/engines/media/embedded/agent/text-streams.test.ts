import { describe, expect, it } from 'vitest';
import type { IncomingTextStream } from '../../agent-transport.js';
import { IncomingTextStreams, OutgoingTextStream, splitUtf8 } from './text-streams.js';

describe('text streams', () => {
  it('splits UTF-8 without cutting characters and reassembles what was written', async () => {
    const text = `${'é'.repeat(9000)}🙂${'a'.repeat(20_000)}`;
    const chunks = splitUtf8(text);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((chunk) => chunk.byteLength <= 15_000)).toBe(true);

    const streams: IncomingTextStream[] = [];
    const incoming = new IncomingTextStreams((stream) => streams.push(stream));
    const writer = new OutgoingTextStream('chat', { key: 'value' }, async (packet) => incoming.handle(packet, 'sender'));
    await writer.write(text.slice(0, 9000));
    await writer.write(text.slice(9000));
    await writer.close();
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatchObject({ topic: 'chat', from: 'sender', attributes: { key: 'value' } });
    expect(await streams[0]!.readAll()).toBe(text);
    await expect(writer.write('late')).rejects.toThrow(/closed/);
  });

  it("carries the header's time and merges the trailer's attributes when the stream ends (LiveKit's final flag may come there)", async () => {
    const streams: IncomingTextStream[] = [];
    const incoming = new IncomingTextStreams((stream) => streams.push(stream));
    const opened = Date.now();
    const writer = new OutgoingTextStream('lk.transcription', { 'lk.segment_id': 'SG_1', 'lk.transcription_final': 'false' }, async (packet) => {
      if (packet.case === 'streamTrailer') packet.value.attributes = { 'lk.transcription_final': 'true' };
      incoming.handle(packet, 'agent');
    });
    await writer.write('said');
    expect(streams[0]!.timestamp).toBeGreaterThanOrEqual(opened);
    expect(streams[0]!.attributes['lk.transcription_final']).toBe('false');
    await writer.close();
    expect(await streams[0]!.readAll()).toBe('said');
    expect(streams[0]!.attributes).toEqual({ 'lk.segment_id': 'SG_1', 'lk.transcription_final': 'true' });
  });

  it('ignores chunks from another sender and topics nobody wants', async () => {
    const streams: IncomingTextStream[] = [];
    const incoming = new IncomingTextStreams(
      (stream) => streams.push(stream),
      (topic) => topic === 'wanted',
    );
    const unwanted = new OutgoingTextStream('other', {}, async (packet) => incoming.handle(packet, 'a'));
    await unwanted.write('x');
    expect(streams).toHaveLength(0);
    const writer = new OutgoingTextStream('wanted', {}, async (packet) => incoming.handle(packet, packet.case === 'streamChunk' ? 'intruder' : 'a'));
    await writer.write('spoofed');
    await writer.close();
    expect(await streams[0]!.readAll()).toBe('');
  });
});
