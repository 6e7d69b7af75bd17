import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

/**
 * Server packages compiled into the build instead of imported from node_modules (docs/decisions/0080): Kysely's
 * 287 ESM files cost ~55 ms of every cold start to resolve and load one by one. Listed in package.json, where the
 * dependency test reads them; their licenses are in THIRD_PARTY_LICENSES.md.
 */
const manifest = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { palaver: { bundledIntoBuild: string[] } };
const bundledIntoBuild = manifest.palaver.bundledIntoBuild;

const entries = {
  index: 'src/index.ts',
  realtime: 'src/realtime.ts',
  tts: 'src/tts.ts',
  graph: 'src/graph.ts',
  openai: 'src/openai.ts',
  server: 'src/server.ts',
};

/**
 * The noise suppressor's worklet code and WebAssembly, imported `with { type: 'bytes' }` (decision 0116): compiled into
 * the suppressor's chunk as bytes, so apps serve no extra file (left external, the attribute would be lost).
 */
const suppressorAssets = /^@sapphi-red\/web-noise-suppressor\/.+\.(?:js|wasm)$/;

const shared: Options = {
  // The base config: the repository's tsconfig maps @palaver/* to sources, which must not leak into declarations.
  tsconfig: '../../tsconfig.base.json',
  target: 'es2022',
  splitting: true,
};

export default defineConfig([
  {
    ...shared,
    format: ['esm'],
    noExternal: [...bundledIntoBuild, suppressorAssets],
    dts: { entry: { ...entries, testing: 'src/testing.ts' } },
    entry: {
      ...entries,
      // Test helpers are ESM only: test runners load ESM, and a CommonJS copy would duplicate the platform.
      testing: 'src/testing.ts',
      // Speech engine workers are started by file URL (`siblingModule`), so they must exist as files. ESM only:
      // worker threads load them the same way from either build.
      'speech/workers/flite-worker': 'src/server/engines/speech/workers/flite-worker.ts',
      'speech/workers/espeak-worker': 'src/server/engines/speech/workers/espeak-worker.ts',
      'speech/workers/pocketsphinx-worker': 'src/server/engines/speech/workers/pocketsphinx-worker.ts',
    },
  },
  {
    ...shared,
    format: ['cjs'],
    // The server's CommonJS entry loads the ESM build (src/server-commonjs.ts).
    entry: { ...entries, server: 'src/server-commonjs.ts' },
    dts: { entry: { ...entries, server: 'src/server-commonjs.ts' } },
    // `import.meta.url` (worker and model file lookups) becomes the file's URL in CommonJS.
    shims: true,
    // Bundled into the CommonJS build: ky is ESM only, and Node 20 before 20.19 cannot require ESM.
    noExternal: ['ky', suppressorAssets],
  },
]);
