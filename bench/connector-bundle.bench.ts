/**
 * What the browser connector (`@palaver/sdk-core/realtime`) weighs in an app's bundle (issue 30; decision 0116): the
 * entry bundled with esbuild as an app's bundler would (ESM, code splitting, minified, livekit-client left out since
 * the app has it anyway), gzipped. The chunks reached only through `import()` (the noise suppressor: its module, the
 * RNNoise worklet and its WebAssembly) are counted apart: they load only when suppression is turned on. The baseline
 * is the same build with every chunk counted, as if the suppressor were imported statically. The connector's REST client
 * (ky), the room link and the checks of what a session receives are the `session-io` chunk, loaded when a session is
 * created: before that split the connector loaded 31.1 kB gzip up front (zod 29.7 kB and ky 13.7 kB raw of its 103.7 kB);
 * with it, 13.4 kB up front and 19.3 kB with the first session while the chunk parsed with zod/mini (32.7 kB in all).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'packages/sdk-core/src/realtime.ts');
/** The connector's budget without livekit-client (issue 30). */
const BUDGET_GZIP_BYTES = 25 * 1024;
/** The connector up front before `session-io` was split off (same build, commit 5d15a81). */
const BEFORE_SPLIT_GZIP_BYTES = 31.1 * 1024;
/** Up front + `session-io` while the chunk parsed packets with the contract's zod/mini schemas (commit 79243dd). */
const WITH_ZOD_GZIP_BYTES = { entry: 13.4 * 1024, sessionIo: 19.3 * 1024 };

const outdir = mkdtempSync(join(tmpdir(), 'palaver-connector-bundle-'));
try {
  const { metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    splitting: true,
    absWorkingDir: root,
    minify: true,
    platform: 'browser',
    target: 'es2022',
    external: ['livekit-client'],
    outdir,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = metafile.outputs;
  const entryOutput = Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined)!;
  const eager = staticClosure(metafile, entryOutput);
  const sizes = Object.keys(outputs)
    .filter((path) => path.endsWith('.js'))
    .map((path) => {
      const bytes = readFileSync(join(root, path));
      return { path, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, eager: eager.has(path) };
    });
  const sum = (list: typeof sizes, key: 'raw' | 'gzip') => list.reduce((total, item) => total + item[key], 0);
  const isSessionIo = (path: string) => Object.keys(outputs[path]!.inputs).some((input) => input.endsWith('realtime/session-io.ts'));
  const connector = sizes.filter((item) => item.eager);
  const sessionIo = sizes.filter((item) => !item.eager && isSessionIo(item.path));
  const lazy = sizes.filter((item) => !item.eager && !isSessionIo(item.path));
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  console.log('@palaver/sdk-core/realtime bundled (esbuild, ESM, splitting, minified; livekit-client external):');
  for (const item of sizes) {
    const inputs = Object.keys(outputs[item.path]!.inputs).filter((input) => input.includes('noise-suppress') || input.includes('rnnoise'));
    const label = item.eager
      ? 'loaded with the connector'
      : isSessionIo(item.path)
        ? 'loaded when a session is created (session-io: REST client, schemas, room link)'
        : `loaded on demand${inputs.length > 0 ? ` (${inputs.map((input) => input.split('/').pop()).join(', ')})` : ''}`;
    console.log(`  ${relative(outdir, join(root, item.path)).padEnd(28)} ${kb(item.raw).padStart(10)} raw ${kb(item.gzip).padStart(9)} gzip  ${label}`);
  }
  const entryGzip = sum(connector, 'gzip');
  const sessionGzip = sum(sessionIo, 'gzip');
  const total = entryGzip + sessionGzip;
  const withZod = WITH_ZOD_GZIP_BYTES.entry + WITH_ZOD_GZIP_BYTES.sessionIo;
  console.log(`  up front (entry and its chunks):         ${kb(entryGzip).padStart(9)} gzip`);
  console.log(`  with the first session (session-io):     ${kb(sessionGzip).padStart(9)} gzip`);
  console.log(
    `  a page that connects, without livekit-client: ${kb(total)} gzip (budget ${kb(BUDGET_GZIP_BYTES)}): ${total < BUDGET_GZIP_BYTES ? 'within' : 'OVER'}`,
  );
  console.log(
    `  before: ${kb(BEFORE_SPLIT_GZIP_BYTES)} up front (no split); ${kb(WITH_ZOD_GZIP_BYTES.entry)} + ${kb(WITH_ZOD_GZIP_BYTES.sessionIo)} = ${kb(withZod)} with zod/mini in session-io; now ${(total / withZod).toFixed(2)}x of that (session-io ${(sessionGzip / WITH_ZOD_GZIP_BYTES.sessionIo).toFixed(2)}x)`,
  );
  // One of the two RNNoise builds loads: the SIMD one where WebAssembly SIMD validates (every current browser).
  const loaded = lazy.filter((item) => !/(^|\/)rnnoise-[A-Z0-9]+\.js$/.test(item.path));
  console.log(`  noise suppressor as a browser with WebAssembly SIMD loads it: ${kb(sum(loaded, 'gzip'))} gzip, ${kb(sum(loaded, 'raw'))} raw`);
  console.log(`  every on-demand chunk (with the non-SIMD fallback):          ${kb(sum(lazy, 'gzip'))} gzip, ${kb(sum(lazy, 'raw'))} raw`);
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(outputs[entryOutput]!.inputs)) {
    const name = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? '@palaver/sdk-core';
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  const heaviest = [...byPackage].sort((left, right) => right[1] - left[1]).slice(0, 4);
  console.log(`  what the connector chunk holds (raw, minified): ${heaviest.map(([name, bytes]) => `${name} ${kb(bytes)}`).join(', ')}`);
  const sessionInputs = sessionIo.flatMap((item) => Object.entries(outputs[item.path]!.inputs));
  const heaviestInSession = sessionInputs.sort((left, right) => right[1].bytesInOutput - left[1].bytesInOutput).slice(0, 5);
  console.log(
    `  what session-io holds (raw, minified): ${heaviestInSession.map(([input, { bytesInOutput }]) => `${input.replace(/.*node_modules\/|packages\/sdk-core\/src\//, '')} ${kb(bytesInOutput)}`).join(', ')}`,
  );
  const suppression = Object.values(outputs[entryOutput]!.inputs).length;
  const own = Object.entries(outputs[entryOutput]!.inputs)
    .filter(([input]) => input.includes('noise-suppression'))
    .reduce((total, [, input]) => total + input.bytesInOutput, 0);
  console.log(`  of the connector, the switch that loads the suppressor: ${kb(own)} raw (${suppression} modules in the entry chunk)`);
  console.log(
    `  baseline, everything loaded at once: ${kb(sum(sizes, 'gzip'))} gzip (the connector alone is ${((sum(connector, 'gzip') / sum(sizes, 'gzip')) * 100).toFixed(0)}% of it)`,
  );
} finally {
  rmSync(outdir, { recursive: true, force: true });
}

/** The output files `start` loads before it runs: itself and its static imports, transitively (not `import()`). */
function staticClosure(metafile: Metafile, start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(start);
  return seen;
}
