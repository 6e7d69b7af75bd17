import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createUsageToken } from '@palaver/sdk-node';
import { preferredLlm, serveBrowserApp, type BrowserAppServer } from '../support/browser-app-server.js';

export interface VoiceDemoOptions {
  /** The platform the browser talks to, e.g. `http://127.0.0.1:8080`. */
  platformUrl: string;
  /** The app backend's secret: never sent to the browser, only used to mint usage tokens. */
  apiKey: string;
  port?: number;
  host?: string;
}

export type VoiceDemo = BrowserAppServer;

/**
 * The demo's app backend, as a customer would write it: serves the page and mints a short-lived usage token
 * per visitor (`POST /api/session`), so the platform API key never reaches the browser.
 *
 * @example
 * const demo = await startVoiceDemo({ platformUrl: server.url, apiKey: server.apiKey, port: 3000 });
 */
export async function startVoiceDemo(options: VoiceDemoOptions): Promise<VoiceDemo> {
  const llm = preferredLlm(options.platformUrl, options.apiKey);
  llm.catch(() => {}); // reported to the visitor through /api/session
  return serveBrowserApp({
    title: 'Palaver voice demo',
    entry: fileURLToPath(new URL('./app/main.tsx', import.meta.url)),
    meta: { 'palaver-platform': options.platformUrl },
    icon: `${options.platformUrl}/favicon.svg`,
    routes: {
      '/api/session': async () => {
        const human = `visitor-${randomBytes(6).toString('hex')}`;
        const [token, llmId] = await Promise.all([createUsageToken({ baseUrl: options.platformUrl, apiKey: options.apiKey, human, ttlSeconds: 3600 }), llm]).catch((error: unknown) => {
          throw new Error(`could not mint a usage token: ${(error as Error).message}`);
        });
        return { token, human, llm: llmId };
      },
    },
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
  });
}
