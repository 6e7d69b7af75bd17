import { RnnoiseWorkletNode } from '@sapphi-red/web-noise-suppressor';
import type { AudioProcessorOptions, Track, TrackProcessor } from 'livekit-client';
import { NOISE_SUPPRESSOR_NAME } from './noise-suppressor-name.js';

/**
 * Loaded only when noise suppression is turned on (`import()` from `microphone-suppression.ts`): this module, the
 * RNNoise worklet's code and its WebAssembly (weights included) form a chunk of their own, inlined as bytes at build
 * time (decision 0116). Nothing is fetched from a CDN; the worklet runs from a `blob:` URL.
 */

/** RNNoise works on 48 kHz audio (its frames are 10 ms of 480 samples). */
const RNNOISE_SAMPLE_RATE = 48_000;

interface Assets {
  workletUrl: string;
  wasm: ArrayBuffer;
}

let assets: Promise<Assets> | undefined;

type BytesModule = { default: Uint8Array<ArrayBuffer> };

/** The worklet's source and the wasm this browser runs (SIMD when it validates, else the plain build). */
function loadAssets(): Promise<Assets> {
  assets ??= (async () => {
    const [worklet, simd] = (await Promise.all([
      import('@sapphi-red/web-noise-suppressor/rnnoiseWorklet.js', { with: { type: 'bytes' } }),
      import('@sapphi-red/web-noise-suppressor/rnnoise_simd.wasm', { with: { type: 'bytes' } }),
    ])) as unknown as [BytesModule, BytesModule];
    const wasm = WebAssembly.validate(simd.default)
      ? simd.default
      : (await import('@sapphi-red/web-noise-suppressor/rnnoise.wasm', { with: { type: 'bytes' } })).default;
    const workletUrl = URL.createObjectURL(new Blob([worklet.default], { type: 'text/javascript' }));
    return { workletUrl, wasm: wasm.slice().buffer };
  })();
  assets.catch(() => (assets = undefined));
  return assets;
}

/** Contexts the worklet module was added to (once per context). */
const prepared = new WeakMap<BaseAudioContext, Promise<void>>();

function prepare(context: AudioContext, workletUrl: string): Promise<void> {
  let ready = prepared.get(context);
  if (!ready) {
    ready = context.audioWorklet.addModule(workletUrl);
    prepared.set(context, ready);
  }
  return ready;
}

/**
 * A livekit-client audio `TrackProcessor` that runs the microphone through RNNoise: source -> RNNoise worklet ->
 * a `MediaStreamDestination` whose track livekit-client sends instead of the raw one.
 *
 * @example
 * await microphoneTrack.setProcessor(createRnnoiseProcessor());
 */
export function createRnnoiseProcessor(): TrackProcessor<Track.Kind.Audio, AudioProcessorOptions> {
  let graph: { context: AudioContext; ownContext: boolean; source: MediaStreamAudioSourceNode; node: RnnoiseWorkletNode } | undefined;

  const destroy = async () => {
    const current = graph;
    graph = undefined;
    processor.processedTrack = undefined;
    if (!current) return;
    current.source.disconnect();
    current.node.disconnect();
    current.node.destroy();
    if (current.ownContext) await current.context.close();
  };

  const init = async ({ track, audioContext }: AudioProcessorOptions) => {
    await destroy();
    const { workletUrl, wasm } = await loadAssets();
    // The room's context when it runs at 48 kHz (Chromium's usual rate), otherwise one of ours at 48 kHz.
    const ownContext = audioContext.sampleRate !== RNNOISE_SAMPLE_RATE;
    const context = ownContext ? new AudioContext({ sampleRate: RNNOISE_SAMPLE_RATE, latencyHint: 'interactive' }) : audioContext;
    // A context the page may not start yet (no user gesture) would send silence: then the raw microphone stays.
    if (context.state !== 'running') await Promise.race([context.resume(), new Promise((resolve) => setTimeout(resolve, 1000))]).catch(() => undefined);
    if (context.state !== 'running') {
      if (ownContext) await context.close();
      throw new Error(`the audio context is ${context.state} (the page may need a user gesture first)`);
    }
    await prepare(context, workletUrl);
    const source = context.createMediaStreamSource(new MediaStream([track]));
    const node = new RnnoiseWorkletNode(context, { maxChannels: 1, wasmBinary: wasm });
    const destination = context.createMediaStreamDestination();
    destination.channelCount = 1;
    source.connect(node).connect(destination);
    graph = { context, ownContext, source, node };
    processor.processedTrack = destination.stream.getAudioTracks()[0];
  };

  const processor: TrackProcessor<Track.Kind.Audio, AudioProcessorOptions> = {
    name: NOISE_SUPPRESSOR_NAME,
    init,
    restart: init,
    destroy,
  };
  return processor;
}
