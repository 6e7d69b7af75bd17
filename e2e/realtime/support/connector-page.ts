import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Which page: the connector driven from the tests, or a React app on `useVoiceAgent`. */
export type ConnectorPageKind = 'connector' | 'react';

const entries: Record<ConnectorPageKind, string> = { connector: './connector-page-entry.ts', react: './react-page-entry.tsx' };
const bundles = new Map<ConnectorPageKind, Promise<string>>();

/** The page's script, bundled from source once per run (sdk-core's realtime entry with its livekit-client; React for `react`). */
function pageScript(kind: ConnectorPageKind): Promise<string> {
  let bundle = bundles.get(kind);
  if (!bundle) {
    bundle = build({
      entryPoints: [fileURLToPath(new URL(entries[kind], import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      target: 'chrome120',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    }).then((result) => result.outputFiles[0]!.text);
    bundles.set(kind, bundle);
  }
  return bundle;
}

/**
 * Serves the connector test page on 127.0.0.1 (a secure context, so getUserMedia works).
 *
 * @example
 * const page = await serveConnectorPage(); await browserPage.goto(page.url);
 */
export async function serveConnectorPage(kind: ConnectorPageKind = 'connector'): Promise<{ url: string; close(): Promise<void> }> {
  const script = await pageScript(kind);
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>palaver connector e2e</title></head><body><script src="/page.js"></script></body></html>';
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
