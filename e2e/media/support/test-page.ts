import { fileURLToPath } from 'node:url';
import { bundleForPage, servePage } from '../../support/bundled-page.js';

/**
 * Serves the test page (livekit-client plus the `window.palaver` driver, bundled once per run) on 127.0.0.1.
 *
 * @example
 * const page = await serveTestPage(); await browserPage.goto(page.url);
 */
export async function serveTestPage(): Promise<{ url: string; close(): Promise<void> }> {
  return servePage('palaver media e2e', await bundleForPage(fileURLToPath(new URL('./page-entry.ts', import.meta.url))));
}
