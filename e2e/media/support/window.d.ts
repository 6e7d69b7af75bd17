import type { PalaverPageApi } from './page-entry.js';

declare global {
  interface Window {
    /** The test page's driver of livekit-client (see page-entry.ts). */
    palaver: PalaverPageApi;
  }
}
