import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createClient } from '@palaver/sdk-core';
import { createUsageToken } from '@palaver/sdk-node';
import { preferredLlm, serveBrowserApp, type BrowserAppServer } from '../support/browser-app-server.js';

export interface AppRunDemoOptions {
  /** The platform the browser talks to, e.g. `http://127.0.0.1:8080`. */
  platformUrl: string;
  /** The app backend's secret: never sent to the browser, only used to apply the template and mint usage tokens. */
  apiKey: string;
  port?: number;
  host?: string;
  /** The template the app is made from (default Simple Voice AI; `app_template_video_conversation` sees the camera). */
  template?: string;
  /** The LLM the template's LLM node takes (default: a hosted one when configured, else the offline model). */
  llm?: string;
  /** An app of yours to run instead of the template's (its graph as it is: no LLM override). */
  app?: string;
}

export interface AppRunDemo extends BrowserAppServer {
  /** The app the visitors run (the Simple Voice AI template, applied once). */
  app: string;
}

/** The template the demo is built on, and the name of the app it becomes. */
export const DEMO_TEMPLATE = 'app_template_simple_voice_ai';
export const DEMO_APP_NAME = 'App run demo (Simple Voice AI)';

/** The demo's app: found by name, or applied from the template the first time. */
async function demoApp(platformUrl: string, apiKey: string, template = DEMO_TEMPLATE): Promise<string> {
  const client = createClient({ baseUrl: platformUrl, apiKey });
  const name = template === DEMO_TEMPLATE ? DEMO_APP_NAME : `App run demo (${template})`;
  for (const app of await client.apps.list()) if (app.name === name) return app.id;
  return (await client.appTemplates.apply(template, { name })).id;
}

/**
 * The app run demo's backend, as a customer would write it: applies the Simple Voice AI template once, serves
 * the page, and hands each visitor a usage token plus what to run (`POST /api/run`); the browser creates the
 * run itself with the token, so the API key never reaches it.
 *
 * @example
 * const demo = await startAppRunDemo({ platformUrl: server.url, apiKey: server.apiKey, port: 3001 });
 */
export async function startAppRunDemo(options: AppRunDemoOptions): Promise<AppRunDemo> {
  const [app, llm] = await Promise.all([
    options.app ?? demoApp(options.platformUrl, options.apiKey, options.template),
    options.app ? undefined : (options.llm ?? preferredLlm(options.platformUrl, options.apiKey)),
  ]);
  const server = await serveBrowserApp({
    title: 'Palaver app run demo',
    entry: fileURLToPath(new URL('./app/main.tsx', import.meta.url)),
    meta: { 'palaver-platform': options.platformUrl },
    icon: `${options.platformUrl}/favicon.svg`,
    routes: {
      '/api/run': async () => {
        const human = `visitor-${randomBytes(6).toString('hex')}`;
        const token = await createUsageToken({ baseUrl: options.platformUrl, apiKey: options.apiKey, human, ttlSeconds: 3600 }).catch((error: unknown) => {
          throw new Error(`could not mint a usage token: ${(error as Error).message}`);
        });
        // The template's LLM node takes the platform's default model; the demo picks a hosted one when configured.
        return { token, human, app, ...(llm ? { overrides: [{ node: 'llm', pad: 'model', value: { type: 'string', value: llm } }] } : {}) };
      },
    },
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
  });
  return { ...server, app };
}
