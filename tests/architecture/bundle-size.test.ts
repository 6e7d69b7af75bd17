import { gzipSync } from 'node:zlib';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const REST_ENTRY_BUDGET_BYTES = 15 * 1024;

/**
 * The gzipped size of what loading `entry` loads: its chunk and the chunks it imports statically (code split as an
 * app's bundler does; chunks reached only by `import()`, like the noise suppressor, load when used and are not counted).
 */
async function gzippedBundleSize(entry: string, external: string[] = []): Promise<{ bytes: number; inputs: string[] }> {
  const result = await build({
    external,
    entryPoints: [resolve(root, entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    absWorkingDir: root,
    outdir: resolve(root, 'node_modules/.cache/bundle-size'),
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const loaded = new Set<string>();
  const visit = (path: string) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const imported of outputs[path]!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined)!);
  const files = result.outputFiles.filter((file) => loaded.has(relative(root, file.path)));
  return {
    bytes: files.reduce((total, file) => total + gzipSync(file.contents).length, 0),
    inputs: [...loaded].flatMap((path) => Object.keys(outputs[path]!.inputs)),
  };
}

it(`the REST-only browser entry stays under ${REST_ENTRY_BUDGET_BYTES / 1024} kB gzipped, without zod or livekit-client`, async () => {
  const { bytes, inputs } = await gzippedBundleSize('packages/sdk-core/src/index.ts');
  console.log(`@palaver/sdk-core (REST entry): ${(bytes / 1024).toFixed(1)} kB gzipped`);
  expect(inputs.filter((input) => /node_modules\/(\.pnpm\/)?(zod|livekit-client)/.test(input))).toEqual([]);
  expect(bytes).toBeLessThan(REST_ENTRY_BUDGET_BYTES);
}, 60_000);

// Voice sessions and app runs (its runtime API client and pad value schemas add ~3 kB): 23.4 -> 26.2 kB. Camera, screen
// share and the agent's video (issue 29): 29.5 -> 30.9 kB (6.6 kB raw: the session's methods, reducer cases, typed errors).
// Issue 30: zod, ky and the room link load with `session-io` when a session is created (31.1 -> 13.3 kB up front).
const REALTIME_OWN_BUDGET_BYTES = 25 * 1024;

it(`the realtime entry adds under ${REALTIME_OWN_BUDGET_BYTES / 1024} kB gzipped to livekit-client`, async () => {
  const whole = await gzippedBundleSize('packages/sdk-core/src/realtime.ts');
  const own = await gzippedBundleSize('packages/sdk-core/src/realtime.ts', ['livekit-client']);
  console.log(`@palaver/sdk-core/realtime: ${(whole.bytes / 1024).toFixed(1)} kB gzipped, ${(own.bytes / 1024).toFixed(1)} kB without livekit-client`);
  expect(whole.inputs.some((input) => input.includes('livekit-client'))).toBe(true);
  expect(own.bytes).toBeLessThan(REALTIME_OWN_BUDGET_BYTES);
  // The contract's schemas (zod) and the REST client (ky) load apart, with the room link (realtime/session-io.ts).
  expect(own.inputs.filter((input) => /node_modules\/(\.pnpm\/)?(zod|ky)@/.test(input))).toEqual([]);
  // The noise suppressor (worklet, WebAssembly) loads only when suppression is turned on (decision 0116).
  expect(own.inputs.filter((input) => input.includes('web-noise-suppressor') || input.includes('rnnoise'))).toEqual([]);
}, 60_000);
