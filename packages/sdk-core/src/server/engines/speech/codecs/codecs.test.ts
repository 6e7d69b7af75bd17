import { describe, expect, it } from 'vitest';
import { decodeMp3, encodeMp3, looksLikeMp3 } from './mp3.js';
import { OpusFrameDecoder, OpusFrameEncoder } from './opus.js';
import { base64ToPcm, float32ToInt16, int16ToFloat32, pcmToBase64, rmsDecibels } from './pcm.js';
import { LinearResampler, resampleHighQuality, resampleLinear } from './resample.js';
import { decodeWav, encodeWav } from './wav.js';

function sine(frequency: number, sampleRate: number, seconds: number, amplitude = 0.5): Int16Array {
  const samples = new Int16Array(Math.round(sampleRate * seconds));
  for (let index = 0; index < samples.length; index++) {
    samples[index] = Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * frequency * index) / sampleRate));
  }
  return samples;
}

/** Frequency from upward crossings with hysteresis (codec noise near zero must not count). */
function dominantFrequency(samples: Int16Array, sampleRate: number): number {
  let crossings = 0;
  let armed = false;
  for (let index = 0; index < samples.length; index++) {
    if (samples[index]! < -2000) armed = true;
    else if (armed && samples[index]! > 2000) {
      crossings++;
      armed = false;
    }
  }
  return crossings / (samples.length / sampleRate);
}

describe('PCM helpers', () => {
  it('converts between Int16 and Float32 and base64', () => {
    const pcm = new Int16Array([0, 16384, -32768, 32767]);
    expect(Array.from(int16ToFloat32(pcm))).toEqual([0, 0.5, -1, 32767 / 32768]);
    expect(Array.from(float32ToInt16(new Float32Array([0, 0.5, -2, 2])))).toEqual([0, 16384, -32768, 32767]);
    expect(Array.from(base64ToPcm(pcmToBase64(pcm)))).toEqual(Array.from(pcm));
    expect(rmsDecibels(sine(440, 16000, 0.1, 1))).toBeCloseTo(-3, 0);
  });
});

describe('WAV', () => {
  it('round-trips PCM16 mono with a 44-byte header', () => {
    const pcm = sine(440, 16000, 0.25);
    const file = encodeWav(pcm, 16000);
    expect(file.length).toBe(44 + pcm.length * 2);
    expect(new TextDecoder().decode(file.subarray(0, 4))).toBe('RIFF');
    const decoded = decodeWav(file);
    expect(decoded.sampleRate).toBe(16000);
    expect(Array.from(decoded.pcm)).toEqual(Array.from(pcm));
  });

  it('rejects data that is not WAV', () => {
    expect(() => decodeWav(new TextEncoder().encode('definitely not a wave file'))).toThrow(/not a WAV/);
  });
});

describe('MP3', () => {
  it('encodes with lamejs and decodes with mpg123, keeping duration and pitch', async () => {
    const pcm = sine(220, 16000, 1);
    const mp3 = encodeMp3(pcm, 16000, { bitrateKbps: 64 });
    expect(looksLikeMp3(mp3)).toBe(true);
    expect(mp3.length).toBeLessThan(pcm.byteLength / 3);
    const decoded = await decodeMp3(mp3);
    expect(decoded.sampleRate).toBe(16000);
    // The decoder adds codec delay/padding: at most a few frames.
    expect(decoded.pcm.length).toBeGreaterThanOrEqual(pcm.length);
    expect(decoded.pcm.length).toBeLessThan(pcm.length + 3000);
    expect(dominantFrequency(decoded.pcm.subarray(2000, 14000), 16000)).toBeGreaterThan(210);
    expect(dominantFrequency(decoded.pcm.subarray(2000, 14000), 16000)).toBeLessThan(230);
  });

  it('rejects data without MP3 frames', async () => {
    const text = new TextEncoder().encode('hello, this is plain text and not audio at all');
    expect(looksLikeMp3(text)).toBe(false);
    await expect(decodeMp3(text)).rejects.toThrow();
  });
});

describe('Opus', () => {
  it('round-trips 20 ms frames at 48 kHz', () => {
    const encoder = new OpusFrameEncoder(48000);
    const decoder = new OpusFrameDecoder(48000);
    const pcm = sine(440, 48000, 0.4);
    const decoded: Int16Array[] = [];
    let packetBytes = 0;
    for (let offset = 0; offset + 960 <= pcm.length; offset += 960) {
      const packet = encoder.encode(pcm.subarray(offset, offset + 960));
      packetBytes += packet.length;
      decoded.push(decoder.decode(packet));
    }
    expect(decoded.every((frame) => frame.length === 960)).toBe(true);
    expect(packetBytes).toBeLessThan(pcm.byteLength / 8);
    const tail = decoded.at(-1)!;
    expect(rmsDecibels(tail)).toBeGreaterThan(rmsDecibels(pcm) - 3);
  });
});

describe('resampling', () => {
  it('linear: streaming output matches one-shot output and keeps frequency', () => {
    const pcm = sine(300, 16000, 1);
    const oneShot = resampleLinear(pcm, 16000, 24000);
    expect(Math.abs(oneShot.length - 24000)).toBeLessThanOrEqual(2);
    const streaming = new LinearResampler(16000, 24000);
    const pieces: number[] = [];
    for (let offset = 0; offset < pcm.length; offset += 320) pieces.push(...streaming.push(pcm.subarray(offset, offset + 320)));
    expect(Math.abs(pieces.length - oneShot.length)).toBeLessThanOrEqual(2);
    expect(dominantFrequency(Int16Array.from(pieces), 24000)).toBeCloseTo(300, -1);
  });

  it('libsamplerate: 44.1 kHz to 16 kHz keeps length and frequency', async () => {
    const pcm = sine(500, 44100, 1);
    const result = await resampleHighQuality(pcm, 44100, 16000);
    expect(Math.abs(result.length - 16000)).toBeLessThanOrEqual(16);
    expect(dominantFrequency(result, 16000)).toBeCloseTo(500, -1);
  });
});
