import { Worker } from 'node:worker_threads';
const t = performance.now();
const w = new Worker(new URL('./wk.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
w.on('message', (m) => { console.log('msg', m, performance.now() - t); w.terminate(); });
w.on('error', (e) => console.log('err', e));
