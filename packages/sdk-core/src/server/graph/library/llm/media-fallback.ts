import type { RuntimeNode } from '../../runtime/graph-node.js';

/**
 * How an LLM node sends pictures and clips: clips as `video_url` parts, clips as their sampled frames (`image_url`
 * parts), or neither (the model cannot see). A node starts with `video` and narrows when its LLM refuses a kind of
 * part, as the engine's probe of video support does, but on the first real refusal instead of a probe request.
 */
export type MediaMode = 'video' | 'frames' | 'none';

function refusalText(error: unknown): string {
  return error instanceof Error ? error.message : '';
}

/**
 * The mode to retry with after `error`, or undefined when the error is not the LLM refusing media: the gateway's
 * "<kind> parts are not supported by the LLM" (and an upstream's own 400 naming `video_url`).
 */
export function narrowedMediaMode(mode: MediaMode, error: unknown): MediaMode | undefined {
  const text = refusalText(error);
  if (mode === 'video' && /video_url/.test(text)) return 'frames';
  if (mode !== 'none' && /image_url parts are not supported/.test(text)) return 'none';
  return undefined;
}

const modes = new WeakMap<RuntimeNode, MediaMode>();

/** The node's media mode now (`video` until its LLM refused something). */
export function mediaModeOf(node: RuntimeNode): MediaMode {
  return modes.get(node) ?? 'video';
}

/**
 * Narrows the node's mode after its LLM refused media with `error`, saying so in the run's log; false when the error
 * is not such a refusal (or nothing is left to narrow).
 */
export function narrowMediaAfter(node: RuntimeNode, model: string, error: unknown): boolean {
  const narrower = narrowedMediaMode(mediaModeOf(node), error);
  if (!narrower) return false;
  modes.set(node, narrower);
  reportMediaMode(node, model, narrower);
  return true;
}

/** Says in the run's log what the narrower mode leaves out. */
function reportMediaMode(node: RuntimeNode, model: string, mode: MediaMode): void {
  if (mode === 'frames') node.log('info', `the LLM '${model}' takes no video: clips are sent as their sampled frames`);
  if (mode === 'none')
    node.log('warning', `the LLM '${model}' cannot see: pictures and clips are left out of its context (choose a vision-capable LLM to send them)`);
}
