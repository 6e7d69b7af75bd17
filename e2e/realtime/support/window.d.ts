import type { AppRunPageApi } from './app-run-page-entry.js';
import type { ConnectorPageApi } from './connector-page-entry.js';

declare global {
  interface Window {
    /** The test page's driver of the realtime connector (see connector-page-entry.ts). */
    connector: ConnectorPageApi;
    /** The test page's driver of the app run connector (see app-run-page-entry.ts). */
    appRun: AppRunPageApi;
  }
}
