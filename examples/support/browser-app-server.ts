import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@palaver/sdk-core';
import { build } from 'esbuild';

/**
 * What the examples' app backends share: serving a React page bundled at start, and JSON routes (`POST`)
 * that mint usage tokens, so the platform API key never reaches the browser.
 */

export interface BrowserAppServerOptions {
  /** The page's `<title>`. */
  title: string;
  /** The browser app's entry file (React + the SDK), bundled once at start. */
  entry: string;
  /** `<meta name content>` pairs written into the page (e.g. where the platform is). */
  meta: Record<string, string>;
  /** `POST` routes answering JSON; a thrown error answers 502 with its message. */
  routes: Record<string, () => Promise<unknown>>;
  port?: number;
  host?: string;
  /** The page's icon (also answered for `/favicon.ico`), e.g. the platform's `/favicon.svg`. */
  icon?: string;
}

export interface BrowserAppServer {
  url: string;
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);

async function bundle(entry: string): Promise<{ script: string; styles: string }> {
  const result = await build({
    entryPoints: [entry],
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
 * Serves a bundled browser app: `GET /` (the page), `/app.js`, `/app.css`, and the JSON `routes`.
 *
 * @example
 * const app = await serveBrowserApp({ title: 'Demo', entry, meta: { 'palaver-platform': url }, routes: { '/api/session': mint } });
 */
export async function serveBrowserApp(options: BrowserAppServerOptions): Promise<BrowserAppServer> {
  const app = await bundle(options.entry);
  const meta = Object.entries(options.meta)
    .map(([name, content]) => `<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`)
    .join('');
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(options.title)}</title>
${meta}${options.icon ? `<link rel="icon" href="${escapeHtml(options.icon)}">` : ''}<link rel="stylesheet" href="/app.css"></head>
<body><div id="root"></div><script src="/app.js"></script></body>
</html>`;
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://demo').pathname;
    const route = options.routes[path];
    if (request.method === 'POST' && route) {
      route().then(
        (answer) => response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(answer)),
        (error: unknown) => response.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ message: (error as Error).message })),
      );
      return;
    }
    if (request.method !== 'GET') {
      response.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    if (path === '/app.js') response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(app.script);
    else if (path === '/app.css') response.writeHead(200, { 'content-type': 'text/css; charset=utf-8' }).end(app.styles);
    else if (path === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else if (path === '/favicon.ico' && options.icon) response.writeHead(302, { location: options.icon }).end();
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

/** The LLM the demos use: a configured hosted model (`OPENAI_API_KEY`, Ollama) first, else the offline one. */
export async function preferredLlm(platformUrl: string, apiKey: string): Promise<string> {
  const client = createClient({ baseUrl: platformUrl, apiKey });
  let offline: string | undefined;
  for await (const llm of client.llms.list()) {
    if (llm.project !== null && llm.project !== undefined) continue;
    if (llm.id === 'builtin-offline') offline = llm.id;
    else return llm.id;
  }
  return offline ?? 'builtin-offline';
}
