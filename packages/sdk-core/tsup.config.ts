import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    realtime: 'src/realtime.ts',
    tts: 'src/tts.ts',
    openai: 'src/openai.ts',
    server: 'src/server.ts',
    testing: 'src/testing.ts',
  },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  splitting: true,
});
