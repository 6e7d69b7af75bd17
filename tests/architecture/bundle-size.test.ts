import { gzipSync } from 'node:zlib';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const REST_ENTRY_BUDGET_BYTES = 15 * 1024;

interface LoadedFiles {
  bytes: number;
  inputs: string[];
}

/**
 * What loading `entry` loads, and what it loads later through `import()` of a module matching `lazy` (code split as an
 * app's bundler does): each side's output files (a chunk and the chunks it imports statically), gzipped, and the
 * modules in them. Chunks reached by any other `import()`, like the noise suppressor, load when used and are in neither.
 */
async function gzippedBundleSize(entry: string, external: string[] = [], lazy?: RegExp): Promise<LoadedFiles & { lazy: LoadedFiles }> {
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
  const visit = (path: string, loaded: Set<string>) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const imported of outputs[path]!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path, loaded);
  };
  const eager = new Set<string>();
  visit(
    Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined && outputs[path]!.entryPoint.endsWith(entry))!,
    eager,
  );
  const later = new Set<string>();
  for (const path of eager)
    for (const imported of outputs[path]!.imports)
      if (imported.kind === 'dynamic-import' && lazy && Object.keys(outputs[imported.path]!.inputs).some((input) => lazy.test(input)))
        visit(imported.path, later);
  for (const path of eager) later.delete(path);
  const measure = (paths: Set<string>): LoadedFiles => ({
    bytes: result.outputFiles.filter((file) => paths.has(relative(root, file.path))).reduce((total, file) => total + gzipSync(file.contents).length, 0),
    inputs: [...paths].flatMap((path) => Object.keys(outputs[path]!.inputs)),
  });
  return { ...measure(eager), lazy: measure(later) };
}

it(`the REST-only browser entry stays under ${REST_ENTRY_BUDGET_BYTES / 1024} kB gzipped, without zod or livekit-client`, async () => {
  const { bytes, inputs } = await gzippedBundleSize('packages/sdk-core/src/index.ts');
  console.log(`@palaver/sdk-core (REST entry): ${(bytes / 1024).toFixed(1)} kB gzipped`);
  expect(inputs.filter((input) => /node_modules\/(\.pnpm\/)?(zod|livekit-client)/.test(input))).toEqual([]);
  expect(bytes).toBeLessThan(REST_ENTRY_BUDGET_BYTES);
}, 60_000);

// Voice sessions and app runs (its runtime API client and pad value schemas add ~3 kB): 23.4 -> 26.2 kB. Camera, screen
// share and the agent's video (issue 29): 29.5 -> 30.9 kB (6.6 kB raw: the session's methods, reducer cases, typed errors).
// Issue 30: ky, the schemas and the room link load with `session-io` when a session is created (31.1 -> 13.3 kB up front,
// 32.7 kB with the chunk); the chunk checks what it receives without zod (`realtime/received/`): 32.7 -> 24.3 kB in all.
const REALTIME_TOTAL_BUDGET_BYTES = 25 * 1024;
const REALTIME_ENTRY_BUDGET_BYTES = 15 * 1024;

it(`a page that connects loads under ${REALTIME_TOTAL_BUDGET_BYTES / 1024} kB gzipped of the connector besides livekit-client, ${REALTIME_ENTRY_BUDGET_BYTES / 1024} kB of it up front`, async () => {
  const whole = await gzippedBundleSize('packages/sdk-core/src/realtime.ts');
  const own = await gzippedBundleSize('packages/sdk-core/src/realtime.ts', ['livekit-client'], /realtime\/session-io\.ts$/);
  const total = own.bytes + own.lazy.bytes;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  console.log(
    `@palaver/sdk-core/realtime without livekit-client: ${kb(own.bytes)} up front + ${kb(own.lazy.bytes)} with the first session = ${kb(total)} gzipped (${kb(whole.bytes)} up front with livekit-client)`,
  );
  expect(whole.inputs.some((input) => input.includes('livekit-client'))).toBe(true);
  // What a session needs (the REST client, the room link, the checks of what arrives) loads with it, in one chunk.
  expect(own.lazy.inputs.some((input) => input.endsWith('realtime/session-io.ts'))).toBe(true);
  expect(own.lazy.inputs.some((input) => input.endsWith('realtime/livekit-room-link.ts'))).toBe(true);
  expect(total).toBeLessThan(REALTIME_TOTAL_BUDGET_BYTES);
  expect(own.bytes).toBeLessThan(REALTIME_ENTRY_BUDGET_BYTES);
  // The REST client (ky) loads only with a session; zod loads with neither (the connector checks packets without it).
  expect(own.inputs.filter((input) => /node_modules\/(\.pnpm\/)?ky@/.test(input))).toEqual([]);
  expect(own.lazy.inputs.some((input) => /node_modules\/(\.pnpm\/)?ky@/.test(input))).toBe(true);
  expect([...own.inputs, ...own.lazy.inputs].filter((input) => /node_modules\/(\.pnpm\/)?zod@/.test(input))).toEqual([]);
  // The noise suppressor (worklet, WebAssembly) loads only when suppression is turned on (decision 0116).
  expect([...own.inputs, ...own.lazy.inputs].filter((input) => input.includes('web-noise-suppressor') || input.includes('rnnoise'))).toEqual([]);
}, 60_000);
