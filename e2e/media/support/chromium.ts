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
