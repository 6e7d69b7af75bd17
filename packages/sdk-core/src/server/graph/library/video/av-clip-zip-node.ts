import type { NodeImplementation } from '../../runtime/graph-node.js';
import { AudioClip } from '../../runtime/stream-values.js';
import { AVClip, VideoClip, emptyAudioClip } from '../../runtime/video-values.js';
import { zipSinks } from '../utility/zip-sinks.js';

/**
 * AVClipZip: one clip from each linked input (`video_clip`, `audio_clip`) paired into an AV clip on `av_clip`, in
 * arrival order; an unlinked input contributes an empty clip. Values of another type are skipped with a warning.
 */
export const avClipZipNode: NodeImplementation = async (node, signal) => {
  const inputs = (['video_clip', 'audio_clip'] as const).filter((id) => node.isLinked(id));
  if (inputs.length === 0) return;
  for await (const values of zipSinks(node, inputs, signal)) {
    let video = new VideoClip([]);
    let audio = emptyAudioClip();
    for (const [index, value] of values.entries()) {
      if (value instanceof VideoClip) video = value;
      else if (value instanceof AudioClip) audio = value;
      else node.log('warning', 'ignored a value that is not a clip', inputs[index]);
    }
    node.source('av_clip').push(new AVClip(video, audio));
  }
};
