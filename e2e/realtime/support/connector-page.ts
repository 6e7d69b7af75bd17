import { fileURLToPath } from 'node:url';
import { bundleForPage, servePage } from '../../support/bundled-page.js';

/** Which page: the connector driven from the tests, a React app on `useVoiceAgent`, or the app run connector. */
export type ConnectorPageKind = 'connector' | 'react' | 'app-run';

const entries: Record<ConnectorPageKind, string> = {
  connector: './connector-page-entry.ts',
  react: './react-page-entry.tsx',
  'app-run': './app-run-page-entry.ts',
};

/**
 * Serves the connector test page (sdk-core's realtime entry with its livekit-client, bundled from source; React
 * for `react`) on 127.0.0.1.
 *
 * @example
 * const page = await serveConnectorPage(); await browserPage.goto(page.url);
 */
export async function serveConnectorPage(kind: ConnectorPageKind = 'connector'): Promise<{ url: string; close(): Promise<void> }> {
  return servePage('palaver connector e2e', await bundleForPage(fileURLToPath(new URL(entries[kind], import.meta.url))));
}
