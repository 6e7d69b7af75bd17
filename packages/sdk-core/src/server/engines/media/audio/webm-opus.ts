/** EBML ids (Matroska/WebM) the reader descends into or takes frames from; every other element is skipped. */
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const BLOCK_GROUP = 0xa0;
const SIMPLE_BLOCK = 0xa3;
const BLOCK = 0xa1;
const CONTAINERS = new Set([SEGMENT, CLUSTER, BLOCK_GROUP]);

interface Vint {
  value: number;
  length: number;
  /** All value bits set: the element's size is unknown (a live recording's Segment and Clusters). */
  unknown: boolean;
}

function readVint(bytes: Uint8Array, offset: number, keepMarker: boolean): Vint | undefined {
  const first = bytes[offset];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (length > 8 || offset + length > bytes.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let index = 1; index < length; index += 1) {
    const byte = bytes[offset + index]!;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/** The frame of a (Simple)Block without lacing: track number, 16-bit timecode, flags, then the Opus packet. */
function blockFrame(bytes: Uint8Array): Uint8Array | undefined {
  const track = readVint(bytes, 0, false);
  if (!track) return undefined;
  const flags = bytes[track.length + 2];
  if (flags === undefined || (flags & 0x06) !== 0) return undefined;
  return bytes.subarray(track.length + 3);
}

/**
 * The Opus packets of a WebM recording of one audio track (what `MediaRecorder` makes of a microphone with
 * `audio/webm;codecs=opus`: livekit-client's pre-connect buffer), in order. A recording cut short yields the packets
 * of its whole blocks; laced blocks (which MediaRecorder does not write) are skipped.
 *
 * @example
 * for (const packet of webmOpusPackets(bytes)) frames.push(decoder.decode(packet));
 */
export function webmOpusPackets(bytes: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const id = readVint(bytes, offset, true);
    if (!id) break;
    const size = readVint(bytes, offset + id.length, false);
    if (!size) break;
    const start = offset + id.length + size.length;
    if (CONTAINERS.has(id.value)) {
      offset = start;
      continue;
    }
    if (size.unknown || start + size.value > bytes.length) break;
    if (id.value === SIMPLE_BLOCK || id.value === BLOCK) {
      const frame = blockFrame(bytes.subarray(start, start + size.value));
      if (frame && frame.length > 0) packets.push(frame);
    }
    offset = start + size.value;
  }
  return packets;
}
