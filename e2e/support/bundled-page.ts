import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';

const bundles = new Map<string, Promise<string>>();

/** An entry file bundled for Chromium (one IIFE, React JSX, production defines), once per run per entry. */
export function bundleForPage(entryFile: string): Promise<string> {
  let bundle = bundles.get(entryFile);
  if (!bundle) {
    bundle = build({
      entryPoints: [entryFile],
      bundle: true,
      write: false,
      format: 'iife',
      target: 'chrome120',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    }).then((result) => result.outputFiles[0]!.text);
    bundles.set(entryFile, bundle);
  }
  return bundle;
}

/**
 * Serves a page running `script` on 127.0.0.1 (a secure context, so getUserMedia works).
 *
 * @example
 * const page = await servePage('palaver media e2e', await bundleForPage(entry)); await browserPage.goto(page.url);
 */
export async function servePage(title: string, script: string): Promise<{ url: string; close(): Promise<void> }> {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><script src="/page.js"></script></body></html>`;
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
