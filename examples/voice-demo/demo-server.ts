import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createClient } from '@palaver/sdk-core';
import { createUsageToken } from '@palaver/sdk-node';
import { build } from 'esbuild';

export interface VoiceDemoOptions {
  /** The platform the browser talks to, e.g. `http://127.0.0.1:8080`. */
  platformUrl: string;
  /** The app backend's secret: never sent to the browser, only used to mint usage tokens. */
  apiKey: string;
  port?: number;
  host?: string;
}

export interface VoiceDemo {
  url: string;
  close(): Promise<void>;
}

function page(platformUrl: string): string {
  const escaped = platformUrl.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Palaver voice demo</title>
<meta name="palaver-platform" content="${escaped}"><link rel="stylesheet" href="/app.css"></head>
<body><div id="root"></div><script src="/app.js"></script></body>
</html>`;
}

/** The LLM the demo's sessions use: a configured hosted model (`OPENAI_API_KEY`, Ollama) first, else the offline one. */
async function preferredLlm(platformUrl: string, apiKey: string): Promise<string> {
  const client = createClient({ baseUrl: platformUrl, apiKey });
  let offline: string | undefined;
  for await (const llm of client.llms.list()) {
    if (llm.project !== null && llm.project !== undefined) continue;
    if (llm.id === 'builtin-offline') offline = llm.id;
    else return llm.id;
  }
  return offline ?? 'builtin-offline';
}

/** The browser app (React + `@palaver/sdk-react`), bundled once at start. */
async function bundleApp(): Promise<{ script: string; styles: string }> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./app/main.tsx', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome120',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    minify: true,
    outdir: 'out',
    logLevel: 'silent',
  });
  const file = (extension: string) => result.outputFiles.find((output) => output.path.endsWith(extension))?.text ?? '';
  return { script: file('.js'), styles: file('.css') };
}

/**
 * The demo's app backend, as a customer would write it: serves the page and mints a short-lived usage token
 * per visitor (`POST /api/session`), so the platform API key never reaches the browser.
 *
 * @example
 * const demo = await startVoiceDemo({ platformUrl: server.url, apiKey: server.apiKey, port: 3000 });
 */
export async function startVoiceDemo(options: VoiceDemoOptions): Promise<VoiceDemo> {
  const app = await bundleApp();
  const html = page(options.platformUrl);
  const llm = preferredLlm(options.platformUrl, options.apiKey);
  llm.catch(() => {}); // reported to the visitor through /api/session
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://demo').pathname;
    if (request.method === 'POST' && path === '/api/session') {
      const human = `visitor-${randomBytes(6).toString('hex')}`;
      Promise.all([createUsageToken({ baseUrl: options.platformUrl, apiKey: options.apiKey, human, ttlSeconds: 3600 }), llm])
        .then(([token, llmId]) => {
          response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
          response.end(JSON.stringify({ token, human, llm: llmId }));
        })
        .catch((error: unknown) => {
          response.writeHead(502, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ message: `could not mint a usage token: ${(error as Error).message}` }));
        });
      return;
    }
    if (request.method !== 'GET') {
      response.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    if (path === '/app.js') response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(app.script);
    else if (path === '/app.css') response.writeHead(200, { 'content-type': 'text/css; charset=utf-8' }).end(app.styles);
    else if (path === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
