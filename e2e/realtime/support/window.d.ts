import type { ConnectorPageApi } from './connector-page-entry.js';

declare global {
  interface Window {
    /** The test page's driver of the realtime connector (see connector-page-entry.ts). */
    connector: ConnectorPageApi;
  }
}
