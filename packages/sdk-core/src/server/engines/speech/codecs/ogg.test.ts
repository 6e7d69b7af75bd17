import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { requireComponent } from '../../../../../tests/support/components.js';
import { encodeOggOpus } from '../../../../../tests/support/ogg-opus-file.js';
import { decodeOgg, looksLikeOgg, UnsupportedOggCodecError } from './ogg.js';
import { speechCodecs } from './speech-codecs.js';

function sine(frequency: number, sampleRate: number, seconds: number, amplitude = 0.5): Int16Array {
  const samples = new Int16Array(Math.round(sampleRate * seconds));
  for (let index = 0; index < samples.length; index++) {
    samples[index] = Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * frequency * index) / sampleRate));
  }
  return samples;
}

/** Amplitude (full scale = 1) of `frequency` in `samples`, by the Goertzel algorithm. */
function toneAmplitude(samples: Int16Array, sampleRate: number, frequency: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let previous = 0;
  let beforePrevious = 0;
  for (const sample of samples) {
    const current = sample / 32768 + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  return (2 * Math.sqrt(Math.max(power, 0))) / samples.length;
}

/** The middle of a decoded tone, away from the codec's onset and tail. */
const middle = (pcm: Int16Array, sampleRate: number) => pcm.subarray(Math.round(sampleRate * 0.25), pcm.length - Math.round(sampleRate * 0.25));

const soxInstalled = spawnSync('sox', ['--version']).status === 0;

describe('Ogg Opus', () => {
  it.each([48_000, 16_000] as const)('decodes a file muxed from libopus packets (%i Hz input) to 48 kHz mono with its duration and pitch', async (rate) => {
    const file = await encodeOggOpus(sine(440, rate, 2), rate);
    expect(looksLikeOgg(file)).toBe(true);
    const decoded = await speechCodecs.ogg.decode(file);
    expect(decoded).toMatchObject({ codec: 'opus', sampleRate: 48_000, errorCount: 0 });
    // Pre-skip and the final granule position trim the stream to the input's length; when the only audio page is
    // also the last one, codec-parser 2.5 does not take the pre-skip (312) off that page's samples and the decoder
    // keeps 6.5 ms of the codec's tail.
    expect(decoded.pcm.length).toBeGreaterThanOrEqual(2 * 48_000);
    expect(decoded.pcm.length).toBeLessThanOrEqual(2 * 48_000 + 312);
    const tone = middle(decoded.pcm, 48_000);
    expect(toneAmplitude(tone, 48_000, 440)).toBeGreaterThan(0.4);
    expect(toneAmplitude(tone, 48_000, 440)).toBeLessThan(0.6);
    expect(toneAmplitude(tone, 48_000, 470)).toBeLessThan(0.05);
    expect(toneAmplitude(tone, 48_000, 880)).toBeLessThan(0.05);
  });

  it('keeps the timing: a tone burst stays where it was', async () => {
    const pcm = new Int16Array(48_000 * 2);
    pcm.set(sine(1000, 48_000, 0.5), 48_000); // silence for 1 s, then 0.5 s of 1 kHz
    const { pcm: decoded } = await decodeOgg(await encodeOggOpus(pcm, 48_000));
    const window = (start: number) => decoded.subarray(Math.round(48_000 * start), Math.round(48_000 * (start + 0.1)));
    expect(toneAmplitude(window(0.85), 48_000, 1000)).toBeLessThan(0.02);
    expect(toneAmplitude(window(1.2), 48_000, 1000)).toBeGreaterThan(0.4);
    expect(toneAmplitude(window(1.6), 48_000, 1000)).toBeLessThan(0.02);
  });

  it('rejects data that is not a complete Ogg stream', async () => {
    const file = await encodeOggOpus(sine(440, 48_000, 1), 48_000);
    const ascii = (text: string) => new TextEncoder().encode(text);
    await expect(decodeOgg(ascii('OggS'))).rejects.toThrow(/not a complete Ogg stream/);
    await expect(decodeOgg(ascii(`OggS${'not an ogg page '.repeat(8)}`))).rejects.toThrow(/no Ogg page found/);
    await expect(decodeOgg(ascii('RIFF....WAVEfmt '))).rejects.toThrow(/no Ogg page found/);
    await expect(decodeOgg(file.subarray(0, file.length - 100))).rejects.toThrow(/truncated: its last page declares \d+ bytes and \d+ are present/);
    // Cut at the end of the header pages: well-formed, but no audio.
    const headers = file.subarray(0, pageEnds(file)[1]);
    await expect(decodeOgg(headers)).rejects.toThrow(/no Opus audio decoded/);
    expect(looksLikeOgg(ascii('ID3\x03'))).toBe(false);
    expect(looksLikeOgg(ascii('Ogg'))).toBe(false);
  });

  it('names a codec other than Opus and Vorbis', async () => {
    const file = await encodeOggOpus(sine(440, 48_000, 1), 48_000);
    // The first packet names the codec; codec-parser does not check page checksums.
    const speex = file.slice();
    speex.set(new TextEncoder().encode('Speex   '), Buffer.from(speex).indexOf('OpusHead'));
    const failure = await decodeOgg(speex).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnsupportedOggCodecError);
    expect((failure as UnsupportedOggCodecError).message).toBe(
      'the Ogg stream holds an unknown codec (identification header "Speex"), and only Opus and Vorbis are decoded',
    );
  });
});

describe.skipIf(!requireComponent('sox', soxInstalled, 'apt install sox'))('Ogg Vorbis', () => {
  it('decodes a stereo file made by sox, averaging the channels', async () => {
    // Left 440 Hz, right 1 kHz, both at half scale: the mono mix holds each at a quarter.
    const made = spawnSync('sox', ['-n', '-r', '44100', '-c', '2', '-t', 'vorbis', '-', 'synth', '2', 'sine', '440', 'sine', '1000', 'vol', '0.5'], {
      maxBuffer: 1 << 24,
    });
    expect(made.status, made.stderr.toString()).toBe(0);
    const file = new Uint8Array(made.stdout);
    expect(looksLikeOgg(file)).toBe(true);
    const decoded = await decodeOgg(file);
    expect(decoded).toMatchObject({ codec: 'vorbis', sampleRate: 44_100, errorCount: 0 });
    expect(decoded.pcm.length / 44_100).toBeCloseTo(2, 2);
    const tone = middle(decoded.pcm, 44_100);
    for (const frequency of [440, 1000]) {
      expect(toneAmplitude(tone, 44_100, frequency)).toBeGreaterThan(0.2);
      expect(toneAmplitude(tone, 44_100, frequency)).toBeLessThan(0.3);
    }
    expect(toneAmplitude(tone, 44_100, 700)).toBeLessThan(0.02);
  });
});

/** Offsets where each page ends (the header's segment table gives the body's length). */
function pageEnds(file: Uint8Array): number[] {
  const ends: number[] = [];
  for (let offset = 0; offset + 27 <= file.length;) {
    const segments = file[offset + 26]!;
    let length = 27 + segments;
    for (let index = 0; index < segments; index++) length += file[offset + 27 + index]!;
    offset += length;
    ends.push(offset);
  }
  return ends;
}
