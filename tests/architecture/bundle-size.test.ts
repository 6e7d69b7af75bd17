import { gzipSync } from 'node:zlib';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const REST_ENTRY_BUDGET_BYTES = 15 * 1024;

async function gzippedBundleSize(entry: string, external: string[] = []): Promise<{ bytes: number; inputs: string[] }> {
  const result = await build({
    external,
    entryPoints: [resolve(root, entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0]!;
  return { bytes: gzipSync(output.contents).length, inputs: Object.keys(result.metafile.inputs) };
}

it(`the REST-only browser entry stays under ${REST_ENTRY_BUDGET_BYTES / 1024} kB gzipped, without zod or livekit-client`, async () => {
  const { bytes, inputs } = await gzippedBundleSize('packages/sdk-core/src/index.ts');
  console.log(`@palaver/sdk-core (REST entry): ${(bytes / 1024).toFixed(1)} kB gzipped`);
  expect(inputs.filter((input) => /node_modules\/(\.pnpm\/)?(zod|livekit-client)/.test(input))).toEqual([]);
  expect(bytes).toBeLessThan(REST_ENTRY_BUDGET_BYTES);
}, 60_000);

// Voice sessions and app runs (its runtime API client and pad value schemas add ~3 kB): 23.4 -> 26.2 kB.
const REALTIME_OWN_BUDGET_BYTES = 30 * 1024;

it(`the realtime entry adds under ${REALTIME_OWN_BUDGET_BYTES / 1024} kB gzipped to livekit-client`, async () => {
  const whole = await gzippedBundleSize('packages/sdk-core/src/realtime.ts');
  const own = await gzippedBundleSize('packages/sdk-core/src/realtime.ts', ['livekit-client']);
  console.log(`@palaver/sdk-core/realtime: ${(whole.bytes / 1024).toFixed(1)} kB gzipped, ${(own.bytes / 1024).toFixed(1)} kB without livekit-client`);
  expect(whole.inputs.some((input) => input.includes('livekit-client'))).toBe(true);
  expect(own.bytes).toBeLessThan(REALTIME_OWN_BUDGET_BYTES);
}, 60_000);
