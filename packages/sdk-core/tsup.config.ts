import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    realtime: 'src/realtime.ts',
    tts: 'src/tts.ts',
    openai: 'src/openai.ts',
    server: 'src/server.ts',
    testing: 'src/testing.ts',
    // Speech engine workers are started by file URL (`siblingModule`), so they must exist as files.
    'speech/workers/flite-worker': 'src/server/speech/workers/flite-worker.ts',
    'speech/workers/espeak-worker': 'src/server/speech/workers/espeak-worker.ts',
    'speech/workers/pocketsphinx-worker': 'src/server/speech/workers/pocketsphinx-worker.ts',
  },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  splitting: true,
});
