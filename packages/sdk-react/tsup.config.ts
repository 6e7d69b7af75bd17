import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  // The base config: the repository's tsconfig maps @palaver/* to sources, which must not leak into declarations.
  tsconfig: '../../tsconfig.base.json',
  dts: true,
  clean: true,
  target: 'es2022',
  external: ['react', /^@palaver\/sdk-core/],
});
