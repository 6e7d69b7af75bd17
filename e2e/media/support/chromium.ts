import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';

/** Debian's Chromium: never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Launch arguments for headless Chromium on this kind of machine (no outside network) with a fake microphone
 * that plays `fakeMicrophoneWav`, and autoplay allowed so pages can play the agent's audio.
 */
export function chromiumArguments(fakeMicrophoneWav: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${fakeMicrophoneWav}`,
    '--autoplay-policy=no-user-gesture-required',
  ];
}

/**
 * Runs `use` with Debian's Chromium whose fake microphone plays `wav` (looped), then closes it and removes the file.
 *
 * @example
 * await withChromium(wavFile(sineTone(440, 48_000, 10_000), 48_000), async (browser) => { ... });
 */
export async function withChromium(wav: Uint8Array, use: (browser: Browser) => Promise<void>): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'palaver-e2e-'));
  const file = join(directory, 'microphone.wav');
  writeFileSync(file, wav);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArguments(file) });
  try {
    await use(browser);
  } finally {
    await browser.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
