import type { Browser } from '@playwright/test';
import type { PalaverServer } from '@palaver/sdk-core/server';
import { concatSamples, wavFile } from '@palaver/sdk-core/testing';
import { withChromium } from '../../media/support/chromium.js';

/** A PCM16 mono WAV from the platform (44-byte header) with `seconds` of silence appended. */
function withTrailingSilence(wav: Uint8Array, seconds: number): Buffer {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const sampleRate = view.getUint32(24, true);
  const samples = new Int16Array(wav.slice(44).buffer);
  return wavFile(concatSamples([samples, new Int16Array(Math.round(sampleRate * seconds))]), sampleRate);
}

/**
 * Runs `use` with Chromium whose fake microphone says `text` (Flite speech made by the platform itself), then
 * `pauseSeconds` of silence, again and again.
 *
 * @example
 * await withSpeakingChromium(server, 'please tell me about the weather', 3, use);
 */
export async function withSpeakingChromium(server: PalaverServer, text: string, pauseSeconds: number, use: (browser: Browser) => Promise<void>): Promise<void> {
  const speech = await server.fetch(
    new Request('http://palaver.test/v1/voice/generate', {
      method: 'POST',
      headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json', accept: 'audio/wav' },
      body: JSON.stringify({ text, voice_id: 'flite-slt' }),
    }),
  );
  await withChromium(withTrailingSilence(new Uint8Array(await speech.arrayBuffer()), pauseSeconds), use);
}

/** Fails in CI, skips elsewhere, when the platform has no speech-to-text engine. */
export async function requireSpeechToText(server: PalaverServer, skip: (condition: boolean, reason: string) => void): Promise<void> {
  const stt = await server.services.speech.stt.status();
  if (stt.available) return;
  if (process.env.CI === 'true') throw new Error(`Required component missing in CI: speech-to-text (${stt.reason})`);
  skip(true, `no speech-to-text engine: ${stt.reason}`);
}
