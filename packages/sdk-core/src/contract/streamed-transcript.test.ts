import { describe, expect, it } from 'vitest';
import { StreamedTranscript, type StreamHeader } from './streamed-transcript.js';

const OPENED = Date.parse('2026-11-27T10:00:00.000Z');
const at = (ms: number) => new Date(OPENED + ms);

function segment(id: string, final: 'true' | 'false' | undefined, streamId = `stream_${id}`, timestamp = OPENED): StreamHeader {
  return {
    id: streamId,
    topic: 'lk.transcription',
    timestamp,
    attributes: { 'lk.segment_id': id, ...(final ? { 'lk.transcription_final': final } : {}) },
  };
}

describe('StreamedTranscript: LiveKit transcript text streams as transcript lines', () => {
  it("reads the agent's delta stream (LiveKit Agents' speech) as one line, interim as it grows, final when the stream closes", () => {
    const lines = new StreamedTranscript();
    const stream = segment('SG_1', 'false');
    expect(lines.update(stream, true, 'Hello', false, at(100))).toEqual({
      id: 'SG_1',
      agent: true,
      final: false,
      created_at: '2026-11-27T10:00:00.000Z',
      speaking_ended_at: null,
      text: 'Hello',
    });
    expect(lines.update(stream, true, 'Hello there.', false, at(200))).toMatchObject({ id: 'SG_1', final: false, text: 'Hello there.' });
    expect(lines.update(stream, true, 'Hello there.', true, at(300))).toEqual({
      id: 'SG_1',
      agent: true,
      final: true,
      created_at: '2026-11-27T10:00:00.000Z',
      speaking_ended_at: '2026-11-27T10:00:00.300Z',
      text: 'Hello there.',
    });
  });

  it("reads the human's words (one complete stream per update, sent as theirs) as one line: interim until the stream marked final, at the first stream's time", () => {
    const lines = new StreamedTranscript();
    expect(lines.update(segment('SG_u', 'false', 's1', OPENED), false, 'what is', true, at(10))).toMatchObject({ final: false, text: 'what is' });
    expect(lines.update(segment('SG_u', 'false', 's2', OPENED + 400), false, 'what is the', true, at(410))).toMatchObject({
      final: false,
      text: 'what is the',
      created_at: '2026-11-27T10:00:00.000Z',
      speaking_ended_at: null,
    });
    expect(lines.update(segment('SG_u', 'true', 's3', OPENED + 900), false, 'what is the time', true, at(910))).toEqual({
      id: 'SG_u',
      agent: false,
      final: true,
      created_at: '2026-11-27T10:00:00.000Z',
      speaking_ended_at: '2026-11-27T10:00:00.910Z',
      text: 'what is the time',
    });
  });

  it('takes the final flag from the trailer (merged into the attributes when the stream ended), and a segment without one as final at its end', () => {
    const lines = new StreamedTranscript();
    const stream = { ...segment('SG_t', 'false'), attributes: { 'lk.segment_id': 'SG_t', 'lk.transcription_final': 'false' } };
    expect(lines.update(stream, false, 'typed', false).final).toBe(false);
    stream.attributes = { ...stream.attributes, 'lk.transcription_final': 'true' };
    expect(lines.update(stream, false, 'typed', true).final).toBe(true);
    expect(lines.update(segment('SG_n', undefined), false, 'no flag', true).final).toBe(true);
    expect(lines.update(segment('SG_m', undefined), false, 'no flag yet', false).final).toBe(false);
  });

  it('keeps a final line final (a later stream of the segment only changes its text) and keeps its end time', () => {
    const lines = new StreamedTranscript();
    lines.update(segment('SG_f', 'true', 'a'), true, 'first', true, at(100));
    expect(lines.update(segment('SG_f', 'false', 'b'), true, 'first, corrected', false, at(500))).toMatchObject({
      final: true,
      text: 'first, corrected',
      speaking_ended_at: '2026-11-27T10:00:00.100Z',
    });
  });

  it("keys lines by segment and speaker: the agent's and the human's segments with one id are two lines; lk.chat streams by their id", () => {
    const lines = new StreamedTranscript();
    lines.update(segment('SG_same', 'false'), true, 'agent words', false);
    expect(lines.update(segment('SG_same', 'false'), false, 'human words', false)).toMatchObject({ id: 'SG_same', agent: false, text: 'human words' });
    expect(lines.update(segment('SG_same', 'false'), true, 'agent words go on', false)).toMatchObject({ agent: true, text: 'agent words go on' });
    const chat: StreamHeader = { id: 'chat_1', topic: 'lk.chat', timestamp: OPENED, attributes: {} };
    expect(lines.update(chat, true, ' typed by the agent ', true)).toMatchObject({ id: 'chat_1', agent: true, final: true, text: 'typed by the agent' });
  });

  it("falls back to the stream id without a segment id, and to the reader's time without a usable timestamp", () => {
    const lines = new StreamedTranscript();
    const line = lines.update({ id: 'stream_x', topic: 'lk.transcription', timestamp: 0 }, false, 'hi', true, at(42));
    expect(line).toMatchObject({ id: 'stream_x', final: true, created_at: '2026-11-27T10:00:00.042Z' });
  });
});
