import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

let bundle: Promise<string> | undefined;

/** The test page's script: livekit-client plus the `window.palaver` driver, bundled once per run. */
function pageScript(): Promise<string> {
  bundle ??= build({
    entryPoints: [fileURLToPath(new URL('./page-entry.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome120',
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text);
  return bundle;
}

/**
 * Serves the test page on 127.0.0.1 (a secure context, so getUserMedia works).
 *
 * @example
 * const page = await serveTestPage(); await browserPage.goto(page.url);
 */
export async function serveTestPage(): Promise<{ url: string; close(): Promise<void> }> {
  const script = await pageScript();
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>palaver media e2e</title></head><body><script src="/page.js"></script></body></html>';
  const server: Server = createServer((request, response) => {
    if (request.url === '/page.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
