import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createClient } from '@palaver/sdk-core';
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
  await ensureDemoPersonas(options.platformUrl, options.apiKey);
  return serveBrowserApp({
    title: 'Palaver voice demo',
    entry: fileURLToPath(new URL('./app/main.tsx', import.meta.url)),
    meta: { 'palaver-platform': options.platformUrl },
    icon: `${options.platformUrl}/favicon.svg`,
    routes: {
      '/api/session': async () => {
        const human = `visitor-${randomBytes(6).toString('hex')}`;
        const [token, llmId] = await Promise.all([
          createUsageToken({ baseUrl: options.platformUrl, apiKey: options.apiKey, human, ttlSeconds: 3600 }),
          llm,
        ]).catch((error: unknown) => {
          throw new Error(`could not mint a usage token: ${(error as Error).message}`);
        });
        return { token, human, llm: llmId };
      },
    },
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
  });
}

/** Personas the demo offers, created once in the project (a customer's backend would manage its own). */
const DEMO_PERSONAS = [
  { name: 'Ada, a patient tutor', description: 'A patient tutor who explains one idea at a time and checks that it landed.', voice: 'flite-slt' },
  { name: 'Rob, a travel guide', description: 'A cheerful travel guide who answers briefly and suggests one thing to see.', voice: 'flite-rms' },
];

async function ensureDemoPersonas(platformUrl: string, apiKey: string): Promise<void> {
  const client = createClient({ baseUrl: platformUrl, apiKey, maxRetries: 1 });
  const existing = new Set<string>();
  for await (const persona of client.personas.list()) existing.add(persona.name);
  for (const persona of DEMO_PERSONAS) if (!existing.has(persona.name)) await client.personas.create(persona);
}
