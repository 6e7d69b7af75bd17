import { describe, expect, it } from 'vitest';
import { webmOpusPackets } from './webm-opus.js';

/** An EBML element: id bytes, a size vint (8 bytes, or unknown), then the body. */
function element(id: number[], body: Uint8Array | number[], unknownSize = false): Uint8Array {
  const content = Uint8Array.from(body);
  const size = unknownSize ? [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff] : [0x01, 0, 0, 0, 0, 0, (content.length >> 8) & 0xff, content.length & 0xff];
  return Uint8Array.from([...id, ...size, ...content]);
}

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));
/** A SimpleBlock of track 1: track vint, timecode, flags (keyframe, no lacing), the frame. */
const simpleBlock = (frame: number[], flags = 0x80) => element([0xa3], [0x81, 0x00, 0x00, flags, ...frame]);

describe('webmOpusPackets', () => {
  it("takes the frames of a live recording's blocks in order (unknown-size Segment and Clusters, as MediaRecorder writes)", () => {
    const header = element([0x1a, 0x45, 0xdf, 0xa3], [0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d]);
    const tracks = element([0x16, 0x54, 0xae, 0x6b], [0xae, 0x83, 0xd7, 0x81, 0x01]);
    const cluster = (first: number) =>
      concat(element([0x1f, 0x43, 0xb6, 0x75], [], true), element([0xe7], [0x00]), simpleBlock([first, 1]), simpleBlock([first, 2]));
    const grouped = element([0xa0], element([0xa1], [0x81, 0x00, 0x10, 0x00, 9, 9]));
    const laced = simpleBlock([7, 7], 0x82);
    const recording = concat(header, element([0x18, 0x53, 0x80, 0x67], [], true), tracks, cluster(10), grouped, laced, cluster(20));

    expect(webmOpusPackets(recording).map((packet) => [...packet])).toEqual([
      [10, 1],
      [10, 2],
      [9, 9],
      [20, 1],
      [20, 2],
    ]);
  });

  it('a recording cut mid-block yields the whole blocks before the cut; garbage yields nothing', () => {
    const recording = concat(element([0x1f, 0x43, 0xb6, 0x75], [], true), simpleBlock([1, 1]), simpleBlock([2, 2]));
    expect(webmOpusPackets(recording.subarray(0, recording.length - 3)).map((packet) => [...packet])).toEqual([[1, 1]]);
    expect(webmOpusPackets(Uint8Array.from([0, 0, 0]))).toEqual([]);
  });
});
