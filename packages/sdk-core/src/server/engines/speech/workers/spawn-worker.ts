import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread from a module URL. Built code points at `.js` files that Node runs directly;
 * when running from TypeScript sources (tests, `tsx` dev server), Node 20 cannot load `.ts` in a worker
 * and ignores `--import` in a worker's execArgv, so a tiny bootstrap registers tsx's loader inside the
 * worker first (~250 ms extra start-up, paid once per worker).
 *
 * @example
 * const worker = spawnWorker(new URL('./flite-worker.js', import.meta.url), { workerData });
 */
export function spawnWorker(entry: URL, options: WorkerOptions = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const require = createRequire(import.meta.url);
  // require.resolve picks tsx's CommonJS build; the ESM register API sits next to it.
  const tsxApi = pathToFileURL(require.resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * Resolves a worker module next to the calling module, keeping the caller's extension (`.ts` from
 * sources, `.js` once built).
 *
 * @example
 * const entry = siblingModule(import.meta.url, 'flite-worker');
 */
export function siblingModule(callerUrl: string, baseName: string): URL {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  const beside = new URL(`./${baseName}${extension}`, callerUrl);
  if (extension === '.ts' || existsSync(fileURLToPath(beside))) return beside;
  // A bundled build (tsup) puts every caller in the bundle's root folder and the worker entries under
  // `speech/workers/` (see tsup.config.ts).
  return new URL(`./speech/workers/${basename(baseName)}.js`, callerUrl);
}
