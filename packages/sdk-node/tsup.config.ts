import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { defineConfig } from 'tsup';
import { SCALAR_ASSET_FOLDER, SCALAR_PACKAGE, scalarAssetName } from '../sdk-core/src/server/edge/http/reference/scalar-bundle.js';

/**
 * Scalar's standalone browser bundle, the one file of `@scalar/api-reference` the server serves at `/docs` (decision
 * 0086), copied into this package's build, gzipped, with Scalar's version in its name: a Node backend gets 1.4 MB
 * instead of the package's ~280 dependencies. sdk-core's reference route finds it there.
 */
function copyScalarBundle(): void {
  const packageRoot = dirname(fileURLToPath(import.meta.url));
  // The package exports only its module entries: its root is found from the main entry (dist/index.js).
  const scalarRoot = dirname(dirname(createRequire(join(packageRoot, 'package.json')).resolve(SCALAR_PACKAGE)));
  const { version } = JSON.parse(readFileSync(join(scalarRoot, 'package.json'), 'utf8')) as { version: string };
  const bundle = readFileSync(join(scalarRoot, 'dist', 'browser', 'standalone.js'));
  const folder = join(packageRoot, SCALAR_ASSET_FOLDER);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, scalarAssetName(version)), gzipSync(bundle, { level: 9 }));
}

export default defineConfig({
  entry: { index: 'src/index.ts', 'cli/main': 'src/cli/main.ts' },
  format: ['esm', 'cjs'],
  // The base config: the repository's tsconfig maps @palaver/* to sources, which must not leak into declarations.
  tsconfig: '../../tsconfig.base.json',
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  target: 'es2022',
  shims: true,
  external: [/^@palaver\/sdk-core/],
  onSuccess: async () => copyScalarBundle(),
});
