import { defineConfig } from 'tsup';

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
});
