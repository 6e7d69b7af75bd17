// What `isomorphic-ws` is in a browser (its `browser.js` exports the global WebSocket). The browser typecheck
// (tsconfig.browser.json) uses this instead of the package's own types, which pull in `ws` and Node's types.
declare const BrowserWebSocket: typeof globalThis.WebSocket;
export default BrowserWebSocket;
